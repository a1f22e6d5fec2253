#!/usr/bin/env python3
"""Capture real Kineto traces of a small decoder with random weights.

    python3 tests/gpu/capture_decoder.py OUTDIR [VARIANT ...]

Needs a GPU and PyTorch (run on a lent device machine, never in CI).  Each
variant is a plain-PyTorch decoder (no framework, no annotations) that runs
one prefill of PROMPT tokens for BATCH sequences and then DECODE single-token
steps with a static KV cache, greedy sampling and a host check after every
step (as HF generate does), profiled with record_shapes and with_stack:

  dense     8 layers: attention (GQA, rotary, QK-norm) + SwiGLU MLP
  moe       8 layers: attention + a routed MoE (8 experts, top-2, softmax
            router, every expert's GEMMs run on its tokens by index)
  hybrid    8 layers: three linear-attention layers (gated decay, output
            gate) then one attention layer, twice; SwiGLU MLP in every layer

each eager (mode eager) and under torch.compile (mode compile: Inductor's
Triton kernels); dense and hybrid also as vLLM serves decode (mode graph:
the prefill eager, every decode step one replay of a CUDA graph).  Writes
OUTDIR/NAME.json.gz and OUTDIR/NAME.truth.json: the architecture as built
(layers, the kind of each layer, MoE or not, hidden size), the forward passes
(1 prefill + DECODE decode), and, counted here from the profiler's own event
list, the kernels the GPU ran.  The weights are random: only the structure
matters.  Stdlib + torch.
"""
import gzip
import json
import os
import re
import shutil
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH, PROMPT, DECODE = 2, 96, 5
MAXLEN = PROMPT + DECODE + 3


class Cfg:
    def __init__(self, kind):
        self.kind = kind
        self.hidden = 1024
        self.heads = 16
        self.kv_heads = 4
        self.head_dim = 64
        self.inter = 2816
        self.vocab = 32000
        self.layers = 8
        self.experts = 8 if kind == 'moe' else 0
        self.topk = 2
        self.moe_inter = 704
        # the kind of each layer's mixer
        if kind == 'hybrid':
            self.mixers = ['linear' if i % 4 != 3 else 'attention' for i in range(self.layers)]
        else:
            self.mixers = ['attention'] * self.layers


class RMSNorm(nn.Module):
    def __init__(self, n, eps=1e-6):
        super().__init__()
        self.w = nn.Parameter(torch.ones(n))
        self.eps = eps

    def forward(self, x):
        v = x.float().pow(2).mean(-1, keepdim=True)
        return (x.float() * torch.rsqrt(v + self.eps)).to(x.dtype) * self.w


def rotary(x, cos, sin):
    a, b = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((a * cos - b * sin, b * cos + a * sin), dim=-1)


class Attention(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c
        q, kv = c.heads * c.head_dim, c.kv_heads * c.head_dim
        self.qkv = nn.Linear(c.hidden, q + 2 * kv, bias=False)
        self.o = nn.Linear(q, c.hidden, bias=False)
        self.qn = RMSNorm(c.head_dim)
        self.kn = RMSNorm(c.head_dim)
        self.register_buffer('kc', torch.zeros(BATCH, c.kv_heads, MAXLEN, c.head_dim))
        self.register_buffer('vc', torch.zeros(BATCH, c.kv_heads, MAXLEN, c.head_dim))

    def forward(self, x, pos, cos, sin, mask):
        c = self.c
        b, t, _ = x.shape
        q, k, v = self.qkv(x).split([c.heads * c.head_dim, c.kv_heads * c.head_dim,
                                     c.kv_heads * c.head_dim], dim=-1)
        q = self.qn(q.view(b, t, c.heads, c.head_dim)).transpose(1, 2)
        k = self.kn(k.view(b, t, c.kv_heads, c.head_dim)).transpose(1, 2)
        v = v.view(b, t, c.kv_heads, c.head_dim).transpose(1, 2)
        q, k = rotary(q, cos, sin), rotary(k, cos, sin)
        self.kc.index_copy_(2, pos, k)
        self.vc.index_copy_(2, pos, v)
        o = F.scaled_dot_product_attention(q, self.kc, self.vc, attn_mask=mask, enable_gqa=True)
        return self.o(o.transpose(1, 2).reshape(b, t, -1))


class LinearAttention(nn.Module):
    """Gated linear attention with a per-head decay: a chunk-parallel form
    for the prefill, the recurrence for one token."""

    def __init__(self, c):
        super().__init__()
        self.c = c
        n = c.heads * c.head_dim
        self.proj = nn.Linear(c.hidden, 4 * n, bias=False)
        self.decay = nn.Parameter(torch.linspace(-3.0, -0.5, c.heads))
        self.norm = RMSNorm(c.head_dim)
        self.o = nn.Linear(n, c.hidden, bias=False)
        self.register_buffer('state', torch.zeros(BATCH, c.heads, c.head_dim, c.head_dim))

    def forward(self, x, pos, cos, sin, mask):
        c = self.c
        b, t, _ = x.shape
        q, k, v, g = self.proj(x).view(b, t, 4, c.heads, c.head_dim).permute(2, 0, 3, 1, 4)
        k = F.normalize(k, dim=-1)
        gamma = torch.sigmoid(self.decay).view(1, -1, 1, 1)          # (1, h, 1, 1)
        i = torch.arange(t, device=x.device, dtype=q.dtype)
        lg = torch.log(gamma)
        dmat = torch.exp(lg * (i.view(-1, 1) - i.view(1, -1))).tril()  # (1, h, t, t)
        o = (q @ k.transpose(-1, -2) * dmat) @ v
        o = o + (q @ self.state) * torch.exp(lg * (i.view(-1, 1) + 1))
        w = torch.exp(lg * (t - 1 - i).view(-1, 1))                   # (1, h, t, 1)
        self.state.copy_(self.state * torch.exp(lg * t) + (k * w).transpose(-1, -2) @ v)
        o = self.norm(o) * F.silu(g)
        return self.o(o.transpose(1, 2).reshape(b, t, -1))


class MLP(nn.Module):
    def __init__(self, hidden, inter):
        super().__init__()
        self.gate_up = nn.Linear(hidden, 2 * inter, bias=False)
        self.down = nn.Linear(inter, hidden, bias=False)

    def forward(self, x):
        g, u = self.gate_up(x).chunk(2, dim=-1)
        return self.down(F.silu(g) * u)


class MoE(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c
        self.router = nn.Linear(c.hidden, c.experts, bias=False)
        self.experts = nn.ModuleList(MLP(c.hidden, c.moe_inter) for _ in range(c.experts))

    def forward(self, x):
        c = self.c
        shape = x.shape
        x = x.reshape(-1, c.hidden)
        p = F.softmax(self.router(x).float(), dim=-1)
        w, idx = torch.topk(p, c.topk, dim=-1)
        w = (w / w.sum(-1, keepdim=True)).to(x.dtype)
        out = torch.zeros_like(x)
        flat = idx.reshape(-1)
        order = torch.argsort(flat)
        counts = torch.bincount(flat, minlength=c.experts)
        tok = order // c.topk
        ws = w.reshape(-1)[order]
        start = 0
        for e, n in enumerate(counts.tolist()):   # the host learns the split (as HF does)
            if n:
                sel = tok[start:start + n]
                out.index_add_(0, sel, self.experts[e](x[sel]) * ws[start:start + n, None])
            start += n
        return out.view(shape)


class Layer(nn.Module):
    def __init__(self, c, mixer):
        super().__init__()
        self.n1 = RMSNorm(c.hidden)
        self.mix = Attention(c) if mixer == 'attention' else LinearAttention(c)
        self.n2 = RMSNorm(c.hidden)
        self.ffn = MoE(c) if c.experts else MLP(c.hidden, c.inter)

    def forward(self, x, pos, cos, sin, mask):
        x = x + self.mix(self.n1(x), pos, cos, sin, mask)
        return x + self.ffn(self.n2(x))


class Decoder(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c
        self.emb = nn.Embedding(c.vocab, c.hidden)
        self.layers = nn.ModuleList(Layer(c, m) for m in c.mixers)
        self.norm = RMSNorm(c.hidden)
        self.head = nn.Linear(c.hidden, c.vocab, bias=False)
        inv = 1.0 / (10000 ** (torch.arange(0, c.head_dim // 2).float() / (c.head_dim // 2)))
        f = torch.outer(torch.arange(MAXLEN).float(), inv)
        self.register_buffer('cos', f.cos())
        self.register_buffer('sin', f.sin())

    def forward(self, ids, pos):
        x = self.emb(ids)
        cos = self.cos[pos].to(x.dtype)
        sin = self.sin[pos].to(x.dtype)
        keys = torch.arange(MAXLEN, device=ids.device)
        mask = (keys.view(1, -1) <= pos.view(-1, 1)).view(1, 1, pos.shape[0], MAXLEN)
        for layer in self.layers:
            x = layer(x, pos, cos, sin, mask)
        logits = self.head(self.norm(x[:, -1:, :]))
        return torch.argmax(logits, dim=-1)


def generate(model, fwd, ids):
    dev = ids.device
    for m in model.modules():           # a new request: empty recurrent state
        if isinstance(m, LinearAttention):
            m.state.zero_()
    pos = torch.arange(PROMPT, device=dev)
    tok = fwd(ids, pos)
    out = [tok]
    for s in range(DECODE):
        pos = torch.tensor([PROMPT + s], device=dev)
        tok = fwd(tok, pos)
        out.append(tok)
        if int(tok.max()) < 0:          # the host's stop check, every step
            break
    return torch.cat(out, dim=1)


def graph_decode(model):
    """As vLLM serves decode: the prefill eager, each decode step one replay
    of a CUDA graph captured once (its kernels have no CPU op)."""
    dev = next(model.parameters()).device
    tok = torch.zeros(BATCH, 1, dtype=torch.long, device=dev)
    pos = torch.zeros(1, dtype=torch.long, device=dev)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(2):
            model(tok, pos)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = model(tok, pos)

    def fwd(ids, p):
        if ids.shape[1] != 1:
            return model(ids, p)
        tok.copy_(ids)
        pos.copy_(p)
        graph.replay()
        return out.clone()
    return fwd


def kernel_count(prof):
    """Kernels in the profiler's own event list (not the exported file)."""
    n = 0
    try:
        for e in prof.events():
            if 'CUDA' in str(getattr(e, 'device_type', '')) and e.name and \
                    not e.name.startswith(('Memcpy', 'Memset')):
                n += 1
    except Exception:                    # the count is a cross-check only
        return None
    return n


def gpu_tag():
    m = re.search(r'\b([A-Z]{1,2}\d{2,4})\b', torch.cuda.get_device_name(0))
    return m.group(1).lower() if m else 'gpu'


def capture(kind, mode, outdir):
    compiled = mode == 'compile'
    torch.manual_seed(0)
    c = Cfg(kind)
    model = Decoder(c).to('cuda', torch.bfloat16).eval()
    fwd = torch.compile(model) if compiled else model
    if mode == 'graph':
        with torch.no_grad():
            fwd = graph_decode(model)
    ids = torch.randint(0, c.vocab, (BATCH, PROMPT), device='cuda')
    with torch.no_grad():
        t0 = time.time()
        generate(model, fwd, ids)           # warm-up (and compile)
        generate(model, fwd, ids)
        torch.cuda.synchronize()
        warm = time.time() - t0
        acts = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
        with torch.profiler.profile(activities=acts, record_shapes=True, with_stack=True) as prof:
            generate(model, fwd, ids)
            torch.cuda.synchronize()
    name = 'torch_%s_%s_%s' % (kind, mode, gpu_tag())
    raw = os.path.join(outdir, name + '.json')
    prof.export_chrome_trace(raw)
    with open(raw, 'rb') as f, gzip.open(raw + '.gz', 'wb', compresslevel=9) as g:
        shutil.copyfileobj(f, g)
    os.remove(raw)
    truth = {
        'trace': name + '.json.gz',
        'captured_with': 'tests/gpu/capture_decoder.py',
        'torch': torch.__version__,
        'gpu': torch.cuda.get_device_name(0),
        'compiled': compiled,
        'cuda_graph_decode': mode == 'graph',
        'model': kind,
        'moe': bool(c.experts),
        'experts': c.experts, 'topk': c.topk if c.experts else 0,
        'hybrid': kind == 'hybrid',
        'hidden': c.hidden, 'heads': c.heads, 'kv_heads': c.kv_heads,
        'head_dim': c.head_dim, 'vocab': c.vocab,
        'layers_per_pass': c.layers,
        'layer_mixers': c.mixers,
        'batch': BATCH, 'prompt_tokens': PROMPT, 'decode_steps': DECODE,
        'passes': 1 + DECODE, 'prefill_passes': 1, 'decode_passes': DECODE,
        'lm_head': 'last token only',
        'annotations': 'none (plain PyTorch, no record_function)',
        'profiler_kernels': kernel_count(prof),
        'warmup_s': round(warm, 1),
    }
    with open(os.path.join(outdir, name + '.truth.json'), 'w') as f:
        json.dump(truth, f, indent=1)
        f.write('\n')
    print('%s: %d kernels, %.1f MB gz, warm-up %.1f s' % (
        name, truth['profiler_kernels'] or -1, os.path.getsize(raw + '.gz') / 1e6, warm), flush=True)


def main():
    outdir = sys.argv[1]
    want = sys.argv[2:] or ['dense:eager', 'moe:eager', 'hybrid:eager',
                            'dense:compile', 'hybrid:compile', 'moe:compile',
                            'dense:graph', 'hybrid:graph']
    os.makedirs(outdir, exist_ok=True)
    budget = float(os.environ.get('CAPTURE_BUDGET_S', '1e9'))
    t0 = time.time()
    failed = 0
    for v in want:
        if time.time() - t0 > budget:
            print('%s: skipped (time budget spent)' % v, flush=True)
            continue
        kind, mode = v.split(':')
        try:
            capture(kind, mode, outdir)
        except Exception as e:           # report and go on to the next variant
            failed += 1
            print('%s: FAILED: %s: %s' % (v, type(e).__name__, e), flush=True)
        torch._dynamo.reset()
        torch.cuda.empty_cache()
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
