#!/usr/bin/env python3
"""Write docs/report.schema.json: the JSON Schema of the JSON report.

    python3 scripts/schema-infer.py ./tracestream [SHARED] > docs/report.schema.json

The types come from the reports of a broad set of runs (the sample, the
captures in tests/data, every shared trace, the fixtures, the ranks of
jobs, --stage, --capture and a cut trace): each member with the types it
took, null allowed below the top level (an unknown value is null), the
top level closed (a member it does not name is an error: raise "schema"
in report_json.c and here when one is removed or retyped). The words are
the descriptions below. t_schema validates every report against the file.
"""
import glob, gzip, json, os, subprocess, sys, tempfile

def corpus(ts, shared):
    """The JSON reports of the runs the schema is drawn from."""
    runs = []
    traces = ['tests/data/sample_trace.json.gz'] + sorted(glob.glob('tests/data/torch_*_h200.json.gz'))
    traces += sorted(glob.glob(os.path.join(shared, '*.json*')))
    traces += sorted(f for f in glob.glob('tests/fixtures/*.json') if not f.endswith('.expect.json'))
    runs += [[t] for t in traces]
    S = lambda n: os.path.join(shared, n)
    runs += [['tests/data/sample_trace.json.gz', 'tests/data/sample_trace.json.gz'],
             ['tests/data/sample_trace.json.gz', 'tests/data/torch_dense_eager_h200.json.gz'],
             sorted(glob.glob('tests/data/torch_*_h200.json.gz')),
             [S('sglang_qwen3-30b-a3b_b300_decode_bs16.trace.json.gz'), S('sglang_qwen3-30b-a3b_mi300x_decode_bs16.trace.json.gz')],
             [S('hta_a100_ddp_training_nccl.json.gz'), S('hta_a100_ddp_training_nccl.json.gz')],
             ['--stage', 'decode', 'tests/data/sample_trace.json.gz'],
             ['--stage', 'prefill', S('sglang_qwen3-8b_mi300x_prefill_then_decode.json.gz')],
             ['--capture', S('vllm_mi300x_graph_capture_bs8192_piecewise.pt.trace.json.gz'),
              S('vllm_mi300x_mixed_prefilldecode_piecewise_graph.json.gz')]]
    with tempfile.TemporaryDirectory() as tmp:
        cut = os.path.join(tmp, 'cut.json')
        with open('tests/data/sample_trace.json.gz', 'rb') as f, open(cut, 'wb') as o:
            o.write(gzip.decompress(f.read())[:1000000])
        runs.append([cut])
        docs = []
        for args in runs:
            if any(a.startswith(shared) and not os.path.exists(a) for a in args):
                continue
            p = subprocess.run([ts, '--no-progress', '-f', 'json'] + args, capture_output=True, text=True)
            if p.stdout:
                docs.append(json.loads(p.stdout))
        return docs

DYNAMIC = {'layers.types', 'trace.peaks.tflops', 'skew.stages', 'skew.layers', 'stages', 'events'}
def tname(v):
    if v is None: return 'null'
    if isinstance(v,bool): return 'boolean'
    if isinstance(v,int): return 'integer'
    if isinstance(v,float): return 'number'
    if isinstance(v,str): return 'string'
    if isinstance(v,list): return 'array'
    return 'object'
class Node:
    def __init__(s): s.types=set(); s.props={}; s.count={}; s.items=None; s.seen=0; s.dyn=None
def add(node, v, path):
    node.seen+=1
    t=tname(v); node.types.add(t)
    if t=='object':
        if path in DYNAMIC:
            if node.dyn is None: node.dyn=Node()
            for k,x in v.items(): add(node.dyn, x, path+'.*')
        else:
            for k,x in v.items():
                if k not in node.props: node.props[k]=Node(); node.count[k]=0
                node.count[k]+=1
                add(node.props[k], x, path+'.'+k if path else k)
    elif t=='array':
        if node.items is None: node.items=Node()
        for x in v: add(node.items, x, path+'[]')
def schema(node, depth=0):
    s={}
    ts=set(node.types)
    if 'integer' in ts: ts.discard('integer'); ts.add('number')
    # an unknown value is null: every number, string, object and list
    # below the top level may be
    if depth > 1 and ts & {'number','string','object','array'}: ts.add('null')
    ts=sorted(ts)
    s['type']=ts[0] if len(ts)==1 else ts
    if 'object' in node.types:
        if node.dyn is not None:
            s['additionalProperties']=schema(node.dyn, depth+1)
        else:
            s['properties']={k:schema(n, depth+1) for k,n in node.props.items()}
    if 'array' in node.types and node.items is not None and node.items.seen:
        s['items']=schema(node.items, depth+1)
    return s

D = {
 '': 'The JSON report of one trace (or the ranks of one job): tracestream -f json. Times are microseconds (_us), shares percent (_pct), sizes bytes; an unknown value is null.',
 'schema': 'The version of this document\'s shape: 1. A change that removes or retypes a field raises it.',
 'tool': 'Always "tracestream".',
 'version': 'The tracestream version that wrote the report.',
 'stage_filter': 'The --stage the report was restricted to, else null.',
 'trace': 'What the trace is: its file, size, whether it was read whole (partial, error), platform, framework, GPU and its peaks, rank, event counts, kernel time, busy time and spans.',
 'trace.partial': 'True where the trace was cut or bad: the report is of what was read.',
 'trace.error': 'Why the trace was not read whole (file, byte, what was wrong), else null.',
 'trace.kernel_time_us': 'The sum of every kernel\'s duration.',
 'trace.busy_time_us': 'Time the GPU ran at least one kernel (overlaps counted once).',
 'model': 'The model: its family (patterns/models), the evidence for it, what the layers held (described), attention kind and heads.',
 'classified_pct': 'Share of kernel time whose kernel a pattern rule typed.',
 'classified_by_words_pct': 'Share of kernel time typed only by the words of a name no rule knows.',
 'patterns': 'The pattern table folders read.',
 'events': 'Events read, by category.',
 'kernels': 'One row per kernel name, by total time: count, times, share, type and category, short name (library, operation, variant).',
 'types': 'Kernel time by kernel type (gemm, attention, moe, norm, communication, ...).',
 'categories': 'Kernel time by category (the library and operation: GEMM-cuBLASLt, Attention-FMHA, ...).',
 'unclassified': 'Kernel names no rule typed, by time.',
 'layers': 'Layers per pass and the evidence for the passes: layer count, complete passes, layer types, kernels outside any pass.',
 'layers.orphan_kernels': 'Kernels outside every forward pass.',
 'passes_note': 'What a trace with no complete pass is (a capture, a fragment), else null.',
 'passes': 'Each forward pass in order: stage and the evidence for it (votes, signals, evidence), complete or cut (start or end), layers, kernels, GPU time, its step window and step, idle inside it.',
 'stages': 'Per stage (prefill, decode, mixed, unknown): passes, layers, kernel time, its share, idle in the passes, and the step (steps: wall, step to step, per output token, batch, tokens/s, the CPU late, the GPU idle before the pass).',
 'layer_table': 'One row per stage and layer index: type, passes, kernels, mean / p50 / p90 time, share of the pass.',
 'layer_anatomy': 'The typical layer of each stage taken apart by kind of work, with FLOPs, bytes and the share of the GPU\'s peak.',
 'busy': 'GPU busy and idle inside the passes and between them.',
 'opportunities': 'What to fix first, largest first: kind, stage, the claim (text), what the fix saves the step where replayed (saves_us), else the time at stake (at_stake_us).',
 'whatif': 'Each stage\'s steps replayed from their launches: the step by cause, the replay\'s fidelity, and what one change at a time saves the step.',
 'attribution': 'How kernels were joined to the CPU ops that launched them (by op, graph, launch, unlinked) and the op index\'s figures.',
 'ops': 'CPU operators (or graph launches) by the kernel time they launched, with call sites.',
 'workloads': 'Operator workloads by shape (GEMM n and k, attention heads): calls, tokens, FLOPs, bytes, rates against the GPU\'s peaks.',
 'memory': 'Memory copies and sets by kind (HtoD, DtoH, DtoD, memset): count, time, bytes.',
 'device_memory': 'Device memory from the allocator\'s [memory] events (profile_memory=True), null without them: per device the peak allocated and reserved and the reserve then (cache and fragmentation), growth over the trace; per stage the peak and the mean growth a pass; per pass its window (step, launches or gpu), events, peak and growth; per device at_peak: who held the peak allocated (before_capture_bytes, then owners: the outermost CPU op of the thread that made each block live then; known false where the events carry no Addr). relative: the events carry no totals (PyTorch < 1.10), allocated counts from the capture\'s start.',
 'collectives': 'Collectives by kind, message size and group: calls, time, bandwidth.',
 'api': 'CUDA/HIP runtime and driver calls by time (as nsys cuda_api_sum), with the synchronizing ones inside passes.',
 'warnings': 'What the reader should know, one sentence each.',
 'graph_replays': 'With --capture: graph replays given their ops back from the capture trace.',
 'ranks': 'Several traces of one job: one row per rank.',
 'skew': 'Several traces of one job: the spread between ranks of kernel time, busy, stages and layers.',
}
# members whose values no run of the corpus shows all of (no shared trace
# has a speculative decode's drafts): their words, as layers_results.c
# writes them (t_schema holds every report to them)
DRAFT_BY = [None, 'target_verified_once', 'target_count_seen_alone', 'target_deeper',
            'layer_count_cycle', 'drafts_count_outside_steps', 'drafts_share_one_graph',
            'target_verifies_their_tokens', 'unknown']
ENUMS = {'layers.drafts_by': DRAFT_BY, 'passes[].draft_by': DRAFT_BY}
def walk(node, path):
    if path in D: node['description']=D[path]
    if path in ENUMS:
        node['type'] = ['null', 'string']
        node['enum'] = ENUMS[path]
    for k,v in node.get('properties',{}).items(): walk(v, path+'.'+k if path else k)
    if 'items' in node: walk(node['items'], path+'[]')
def main():
    ts = sys.argv[1]
    shared = sys.argv[2] if len(sys.argv) > 2 else '../shared/traces'
    docs = corpus(ts, shared)
    root = Node()
    for d in docs:
        add(root, d, '')
    s = schema(root)
    walk(s, '')
    out={'$schema':'https://json-schema.org/draft/2020-12/schema','$id':'urn:tracestream:report:1','title':'tracestream report, schema 1'}
    out.update(s)
    out['properties']['schema']={'const':1,'description':D['schema']}
    out['required']=sorted(k for k,c in root.count.items() if c==len(docs))
    out['additionalProperties']=False
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write('\n')

if __name__ == '__main__':
    main()
