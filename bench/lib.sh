# bench/lib.sh - helpers the benchmark scripts share (sourced, not run).

# "100M" -> 100000000, "1.5G" -> 1500000000 (decimal units); exits 1 on
# anything else
to_bytes() {
    awk -v s="$1" 'BEGIN {
        m = 1; u = toupper(substr(s, length(s)))
        if (u == "K") m = 1e3; else if (u == "M") m = 1e6; else if (u == "G") m = 1e9
        if (m > 1) s = substr(s, 1, length(s) - 1)
        if (s !~ /^[0-9]+(\.[0-9]+)?$/) exit 1
        printf "%.0f\n", s * m }'
}

# field NAME FILE: the value after NAME in a "key value key value" line
# (bench/peakrss writes "wall_s 1.234 peak_rss_kb 5120 status 0")
field() { awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }' "$2"; }
