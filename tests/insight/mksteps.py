#!/usr/bin/env python3
"""A hand-made trace of serving steps with known wall, step and per-token
figures.

    mksteps.py trace.json truth.json

Three decode steps (step[DECODE bs=4]), a prefill (step[EXTEND bs=2
toks=64]), four more decode steps: each the layers of mkidle.py (an
embedding, 4 layers, a final norm, an argmax), every kernel launched well
before it runs (no launch-bound gap). Decode step i has a gap of 2 + i us
before every ninth kernel, so each wall differs; between steps the GPU
sits idle for a chosen time. The truth holds, from this construction:
each stage's wall mean, p50 and max over its passes; the start-to-start
time of consecutive decode steps (five: the prefill breaks the run) and
its median; tokens per second (a prefill's over its step: its annotation
opens 90 us before its first kernel runs, its window the CPU window to
the pass's GPU end). The CPU makes three calls that wait for
the GPU: a cudaStreamSynchronize (20 us) inside the second decode step
(its annotation and its launches), a blocking cudaMemcpy (15 us) inside
the prefill's, and a
cudaDeviceSynchronize (50 us) between the first two steps, in no pass; the
truth holds the API summary (calls and time per name) and which of them
fell inside a pass.
"""
import json
import statistics
import sys

from mkidle import EMBED, LAYER, RMS, SAMPLE, NLAYERS, kernel_event, launch_event, write_trace

SEQ = [(EMBED, 6)] + [(n, d) for n, d, _ in LAYER] * NLAYERS + [(RMS, 7), (SAMPLE, 4)]
PLAN = ['decode'] * 3 + ['prefill'] + ['decode'] * 4
# step: [(inside its annotation or after its kernels, call, us)]
SYNC = {0: [('after', 'cudaDeviceSynchronize', 50)], 1: [('in', 'cudaStreamSynchronize', 20)],
        3: [('in', 'cudaMemcpy', 15)]}
BETWEEN = [300, 450, 380, 520, 410, 600, 350, 0]   # us of idle after each step


def main():
    out, truth_path = sys.argv[1], sys.argv[2]
    ev, corr, t = [], 1000, 1_000_000.0
    walls = {'decode': [], 'prefill': []}
    starts = []
    for i, stage in enumerate(PLAN):
        name = 'step[DECODE bs=4]' if stage == 'decode' else 'step[EXTEND bs=2 toks=64]'
        start = t
        cpu = start - 80
        ev.append({'ph': 'X', 'cat': 'user_annotation', 'name': name, 'pid': 1, 'tid': 1,
                   'ts': start - 90, 'dur': 80.0})
        for when, call, dur in SYNC.get(i, []):
            at = start - 70 if when == 'in' else start + 100
            ev.append({'ph': 'X', 'cat': 'cuda_runtime', 'name': call, 'pid': 1, 'tid': 1,
                       'ts': at, 'dur': float(dur), 'args': {'correlation': 0}})
        for j, (kname, dur) in enumerate(SEQ):
            if j and j % 9 == 0:
                t += 2 + i
            ev.append(kernel_event(kname, t, dur, 7, corr))
            ev.append(launch_event(cpu, corr))
            cpu += 1.0
            corr += 1
            t += dur
        walls[stage].append(t - start)
        starts.append((stage, start))
        t += BETWEEN[i]
    write_trace(out, ev)
    steps = [b[1] - a[1] for a, b in zip(starts, starts[1:])
             if a[0] == b[0] == 'decode']
    dw = walls['decode']
    truth = {
        'decode': {'passes': len(dw), 'wall_mean_us': sum(dw) / len(dw),
                   'wall_p50_us': statistics.median(dw), 'wall_max_us': max(dw),
                   'steps': len(steps), 'step_p50_us': statistics.median(steps),
                   'batch': 4, 'tokens': 4 * len(dw),
                   'tokens_per_s': 4 / (statistics.median(steps) / 1e6),
                   'per_output_token_us': statistics.median(steps),
                   'per_output_token_from': 'step_to_step',
                   'step_windows': len(dw), 'before_pass_us': 90.0 * len(dw),
                   'sync_calls': 1, 'sync_us': 20.0, 'sync_top': 'cudaStreamSynchronize'},
        'prefill': {'passes': 1, 'wall_mean_us': walls['prefill'][0],
                    'wall_p50_us': walls['prefill'][0], 'wall_max_us': walls['prefill'][0],
                    'steps': 0, 'step_p50_us': None, 'tokens': 64,
                    'tokens_per_s': 64 / ((walls['prefill'][0] + 90) / 1e6),
                    'per_output_token_us': None,
                    'step_windows': 1, 'step_window_p50_us': walls['prefill'][0] + 90,
                    'before_pass_us': 90.0, 'after_pass_us': 0.0,
                    'sync_calls': 1, 'sync_us': 15.0, 'sync_top': 'cudaMemcpy'},
        'api': {'cudaLaunchKernel': (len(PLAN) * len(SEQ), 0.5 * len(PLAN) * len(SEQ), False, None),
                'cudaStreamSynchronize': (1, 20.0, True, 1),
                'cudaMemcpy': (1, 15.0, True, 1),
                'cudaDeviceSynchronize': (1, 50.0, True, 0)},
    }
    json.dump(truth, open(truth_path, 'w'), indent=1)


if __name__ == '__main__':
    main()
