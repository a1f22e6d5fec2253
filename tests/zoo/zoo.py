#!/usr/bin/env python3
"""A zoo of random decoder architectures as Kineto traces, with their truth.

    zoo.py SEED [--random-names] [-o TRACE] [--truth FILE] [--describe]

Each seed draws one architecture and one run of it (the draw is the same for
the same seed, on any machine: Python's random.Random(seed)):

  depth        2 to 96 layers
  mixers       attention (MHA/GQA or MLA), optionally with q/k norms; or a
               hybrid: linear attention (gated delta net) or an SSM (Mamba)
               every layer but every k-th, or sliding / global attention
               alternating (the two with their own kernels, or one kernel)
  MLPs         dense, MoE (routing, sort/align, two expert GEMMs, finalize;
               a shared expert on the same or a second stream), MoE in
               every layer, every other layer, or all but the first k
  norms        fused with the residual add (layer 0 runs a plain norm),
               separate, unfused eager ATen (pow, mean, add, rsqrt, mul),
               or Inductor fusions that end one layer and start the next
               (piecewise graphs: names numbered per piece, so one name
               means different things in different pieces)
  TP           collectives at one or two places per layer (custom
               all-reduce, NCCL, RCCL's generic kernel, or the all-reduce
               fused with the next norm); the embedding's all-reduce
  stacks       the kernel names of vLLM, SGLang, TensorRT-LLM, AMD (aiter,
               CK, hipBLASLt) and HF eager PyTorch
  passes       a prefill then 1 to 3 decode passes, or decode passes only,
               with step annotations (SGLang or vLLM style) or none; graph
               replay (no ops) or eager (ops with External ids)
  heads/tails  scheduler and metadata kernels, the embedding, once-per-pass
               kernels (a varlen scheduler, a planner), the final norm, the
               LM head, a sampler of 1 to 30 kernels

--random-names replaces every kernel name by a random string (one string per
distinct name), so no table can type a kernel: only structure is left.

The trace goes to -o (default stdout), plain JSON. --truth writes the truth:

  {"seed", "arch": {...}, "layers_per_pass": N,
   "passes": [{"stage", "annotated", "kernels", "layers": [
       {"first_ts", "last_end", "kernels", "type"}, ...]}, ...]}

where first_ts is the start of the layer's first kernel (the kernels in
start order) and last_end the latest end of its kernels, both in us with
three decimals as written in the trace, so a layer slice of `tracestream
annotate` can be compared exactly. A layer is what one decoder block
launches: its input norm (fused with the previous residual add or not) to
the end of its MLP, its collectives included; the head (metadata,
embedding, its all-reduce) and the tail (final norm, LM head, sampler) are
no layer.
"""
import json
import random
import string
import sys

# ------------------------------------------------------------ name pools
# Per stack: role -> a name, or a list to draw one from (the draw is per
# trace: one architecture uses one kernel per role, as a build does).
ATEN_META = [
    'void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<int>, std::array<char*, 1ul> >(int, at::native::FillFunctor<int>, std::array<char*, 1ul>)',
    'void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(long)#1}, std::array<char*, 2ul>, 4, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(long)#1}, std::array<char*, 2ul>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1>)',
    'void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<int>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<int>, std::array<char*, 3ul>)',
    'void (anonymous namespace)::elementwise_kernel_with_index<int, at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}>(int, at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}, function_traits<at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}>::result_type*)',
    'void at::native::index_elementwise_kernel<128, 4, at::native::gpu_index_kernel<at::native::index_kernel_impl<at::native::OpaqueType<8> >(at::TensorIterator&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1}>(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>, at::native::index_kernel_impl<at::native::OpaqueType<8> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1} const&, bool)::{lambda(int)#1}>(long, at::native::gpu_index_kernel<at::native::index_kernel_impl<at::native::OpaqueType<8> >(at::TensorIterator&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1}>(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>, at::native::index_kernel_impl<at::native::OpaqueType<8> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1} const&, bool)::{lambda(int)#1})',
    'void at_cuda_detail::cub::detail::scan::DeviceScanKernel<at_cuda_detail::cub::detail::scan::policy_hub<int, int, int, unsigned int, at_cuda_detail::cub::Sum>::Policy600, int*, int*, at_cuda_detail::cub::ScanTileState<int, true>, at_cuda_detail::cub::Sum, at_cuda_detail::cub::NullType, unsigned int, int, false>(int*, int*, at_cuda_detail::cub::ScanTileState<int, true>, int, at_cuda_detail::cub::Sum, at_cuda_detail::cub::NullType, unsigned int)',
    '_compute_slot_mapping_kernel',
    'void (anonymous namespace)::resolve_future_token_ids_kernel<long>(long*, long const*, unsigned long)',
    'create_flashinfer_kv_indices_triton',
    '_copy_page_indices_kernel',
]
SAMPLER = [
    'void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::ArgMaxOps<float>, unsigned int, long, 4> >(at::native::ReduceOp<float, at::native::ArgMaxOps<float>, unsigned int, long, 4>)',
    'void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(float*, float const*, int)',
    'void at_cuda_detail::cub::detail::radix_sort::DeviceRadixSortOnesweepKernel<at_cuda_detail::cub::detail::radix_sort::policy_hub<float, long, unsigned int>::Policy900, false, float, long, unsigned int, int, at_cuda_detail::cub::detail::identity_decomposer_t>(int*, int*, unsigned int*, unsigned int const*, float*, float const*, long*, long const*, int, int, int, at_cuda_detail::cub::detail::identity_decomposer_t)',
    'void at::native::(anonymous namespace)::sort_postprocess_kernel<float>(float const*, float*, long*, int2 const*, int, int)',
    'void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::DivFunctor<float> >, std::array<char*, 3ul> >(int, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::DivFunctor<float> >, std::array<char*, 3ul>)',
    'void at::native::tensor_kernel_scan_innermost_dim<float, std::plus<float> >(float*, float const*, unsigned int, unsigned int, unsigned int, float, std::plus<float>)',
    'void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::masked_fill_kernel(at::TensorIterator&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#11}::operator()() const::{lambda(float, bool)#1}, std::array<char*, 3ul> >(int, at::native::(anonymous namespace)::masked_fill_kernel(at::TensorIterator&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#11}::operator()() const::{lambda(float, bool)#1}, std::array<char*, 3ul>)',
    'flashinfer::sampling::TopKTopPSamplingFromProbKernel<1024u, (cub::BlockScanAlgorithm)2, (cub::BlockReduceAlgorithm)0, 1u, false, float, int>',
]

NV_GEMMS = [
    'nvjet_tst_64x64_64x16_2x1_2cta_v_bz_bias_TNT', 'nvjet_tst_144x128_64x6_2x1_v_bz_bias_TNN',
    'nvjet_tst_64x16_64x16_2x4_2cta_h_bz_bias_TNT', 'nvjet_sm103_tst_32x64_64x16_4x1_v_bz_splitK_TNN',
    'sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas',
    'sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize256x128x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas',
    'void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_128x128_32x3_nn_align8>(cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_128x128_32x3_nn_align8::Params)',
    'void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x5_tn_align8>(cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x5_tn_align8::Params)',
    'sm80_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x64x64_stage3_warpsize2x2x1_tensor16x8x16_kernel',
]
AMD_GEMMS = [
    'Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT64x32x256_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMB_GLS0_ISA942_IU1_K1_LBSPPA2048_LBSPPB128_LBSPPM0_LPA16_LPB4_LPM0_LRVW8_LWPMn1_MIAV1_MIWT1_1_MO40_NTn1_NTA0_NTB0_NTC0_NTD0_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW1_SK0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA1_VWB1_WSGRA0_WSGRB0_WS64_WG16_4_1',
    'Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT16x32x512_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMB_GLS0_ISA942_IU1_K1_LBSPPA4096_LBSPPB256_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV1_MIWT1_1_MO40_NTn1_NTA0_NTB0_NTC0_NTD0_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW1_SK0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA1_VWB1_WSGRA0_WSGRB0_WS64_WG8_8_1',
    'Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x32x64_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMB_GLS0_ISA942_IU1_K1_LBSPPA512_LBSPPB128_LBSPPM0_LPA16_LPB4_LPM0_LRVW8_LWPMn1_MIAV1_MIWT4_1_MO40_NTn1_NTA0_NTB0_NTC0_NTD0_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW1_SK0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA1_VWB1_WSGRA0_WSGRB0_WS64_WG64_4_1',
    'Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT32x32x256_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMB_GLS0_ISA942_IU1_K1_LBSPPA2048_LBSPPB256_LBSPPM0_LPA16_LPB8_LPM0_LRVW8_LWPMn1_MIAV1_MIWT1_1_MO40_NTn1_NTA0_NTB0_NTC0_NTD0_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW1_SK0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA1_VWB1_WSGRA0_WSGRB0_WS64_WG16_16_1',
]

STACKS = {
    'vllm': {
        'embed': 'void at::native::(anonymous namespace)::indexSelectLargeIndex<c10::BFloat16, long, unsigned int, 2, 2, -2, true>(at::cuda::detail::TensorInfo<c10::BFloat16, unsigned int>, at::cuda::detail::TensorInfo<c10::BFloat16 const, unsigned int>, at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, unsigned int, unsigned int, long)',
        'norm0': 'void vllm::rms_norm_kernel<c10::BFloat16, 8, 2>(c10::BFloat16*, c10::BFloat16 const*, long, long, c10::BFloat16 const*, float, int, int)',
        'norm': 'std::enable_if<(((8)>(0)))&&vllm::_typeConvert<c10::BFloat16>::exists, void>::type vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, long, c10::BFloat16*, c10::BFloat16 const*, float, int, int)',
        'qknorm': 'void vllm::rms_norm_kernel<c10::BFloat16, 8, 2>(c10::BFloat16*, c10::BFloat16 const*, long, long, c10::BFloat16 const*, float, int, int)',
        'rope': 'void vllm::rotary_embedding_kernel<c10::BFloat16, true>(long const*, c10::BFloat16*, c10::BFloat16*, c10::BFloat16 const*, int, long, long, long, int, int, int)',
        'kvw': 'void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, __nv_bfloat16, (vllm::Fp8KVCacheDataType)0>(__nv_bfloat16 const*, __nv_bfloat16 const*, __nv_bfloat16*, __nv_bfloat16*, long const*, long, long, long, long, long, int, int, int, float const*, float const*)',
        'attn': ['void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 4, cutlass::bfloat16_t> >, false, true, false, false, true, true, false, false>(flash::Flash_fwd_params)',
                 'kernel_unified_attention_2d', 'void vllm::paged_attention_v2_kernel<__nv_bfloat16, __nv_bfloat16, 128, 16, 128, (vllm::Fp8KVCacheDataType)0, false, 512>(float*, float*, __nv_bfloat16*, __nv_bfloat16 const*, __nv_bfloat16 const*, __nv_bfloat16 const*, int, float, int const*, int const*, int, float const*, int, int, int, float const*, int, int, int, float, float)'],
        'attn2': 'void flash::flash_fwd_splitkv_combine_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 4, cutlass::bfloat16_t> >, 4, 1, true>(flash::Flash_fwd_params)',
        'swa': 'void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 4, cutlass::bfloat16_t> >, true, true, false, false, true, true, false, false>(flash::Flash_fwd_params)',
        'act': 'void vllm::act_and_mul_kernel<c10::BFloat16, &(c10::BFloat16 vllm::silu_kernel<c10::BFloat16>(c10::BFloat16 const&)), true>(c10::BFloat16*, c10::BFloat16 const*, int)',
        'topk': 'void vllm::moe::topkGatingSoftmax<8, 128, 4, 16, 32, int, 4>(float const*, bool const*, float*, int, int*, int*, int, int, int, bool)',
        'align': 'void vllm::moe::moe_align_block_size_kernel<int>(int const*, int*, int*, int*, int, int, int, int, unsigned long, int*)',
        'expert': 'fused_moe_kernel',
        'moesum': 'void vllm::moe::moe_sum_kernel<c10::BFloat16, 8>(c10::BFloat16*, c10::BFloat16 const*, int)',
        'ar': ['void vllm::cross_device_reduce_1stage<__nv_bfloat16, 4>(vllm::RankData*, vllm::RankSignals, vllm::Signal*, __nv_bfloat16*, int, int)',
               'ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)',
               'void (anonymous namespace)::multimem_all_reduce_kernel<c10::BFloat16, 16>(c10::BFloat16*, unsigned long, unsigned long, unsigned long, unsigned int, unsigned int, unsigned int)'],
        'gather': 'ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)',
        'mla_attn': 'void flashmla::flash_fwd_splitkv_mla_kernel<cutlass::bfloat16_t, 64, 64>(flashmla::Flash_fwd_mla_params)',
        'mla_kvw': 'void vllm::concat_and_cache_mla_kernel<__nv_bfloat16, __nv_bfloat16, (vllm::Fp8KVCacheDataType)0>(__nv_bfloat16 const*, __nv_bfloat16 const*, __nv_bfloat16*, long const*, int, int, int, int, int, float const*)',
        'gemms': NV_GEMMS,
    },
    'sglang': {
        'embed': 'void at::native::(anonymous namespace)::indexSelectSmallIndex<c10::BFloat16, long, unsigned int, 2, 2, -2>(at::cuda::detail::TensorInfo<c10::BFloat16, unsigned int>, at::cuda::detail::TensorInfo<c10::BFloat16 const, unsigned int>, at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, unsigned int, long)',
        'norm0': 'kernel_cutlass_kernel_flashinfernormkernelsrmsnormRMSNormKernel_object_at__tensorptrbf16gmemalign128odiv8_tensorptrbf16gmemalign128odiv8_tensorptrbf16gmemalign128odiv8_1_0',
        'norm': 'kernel_cutlass_kernel_flashinfernormkernelsfused_add_rmsnormFusedAddRMSNormKernel_object_at__tensorptrbf16gmemalign128odiv8_tensorptrbf16gmemalign128odiv8_1_0',
        'qknorm': 'void (anonymous namespace)::fused_qknorm_warp<128l, true, __nv_bfloat16>((anonymous namespace)::QKNormParams)',
        'rope': 'void (anonymous namespace)::fused_rope_store_kernel<true, 128l, true, __nv_bfloat16, long, 16u>((anonymous namespace)::FusedRopeStoreParams)',
        'kvw': None,
        'attn': ['fmhaSm100fKernel_QkvBfloat16OBfloat16H128PagedKvCausalP64MultiCtasKvCgaVarSeqQ8Kv128StaticSwapsAbForGen',
                 'void flashinfer::BatchDecodeWithPagedKVCacheKernel<(flashinfer::PosEncodingMode)0, 2u, 4u, 8u, 16u, 1u, 8u, flashinfer::DefaultAttention<false, false, false, false>, flashinfer::PagedParams<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, int> >(flashinfer::PagedParams<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, int>)'],
        'attn2': 'void flashinfer::MergeStatesKernel<8u, 16u, 8u, 1u, __nv_bfloat16, __nv_bfloat16>(__nv_bfloat16*, float*, __nv_bfloat16*, float*, unsigned int, unsigned int)',
        'swa': 'fmhaSm100fKernel_QkvBfloat16OBfloat16H128PagedKvSlidingOrChunkedCausalP64MultiCtasKvCgaVarSeqQ8Kv128StaticSwapsAbForGen',
        'act': 'void flashinfer::activation::act_and_mul_kernel<__nv_bfloat16, &silu>(__nv_bfloat16*, __nv_bfloat16 const*, int)',
        'topk': 'void moe::dev::routing::routingRenormalize::routingIndicesHistogramScoresKernel<moe::dev::routing::routingRenormalize::KernelParams<__nv_bfloat16, __nv_bfloat16, 8, true> >(moe::dev::routing::routingRenormalize::KernelParams<__nv_bfloat16, __nv_bfloat16, 8, true>)',
        'align': 'void moe::dev::routing::routingIndicesOffsetsKernel<moe::dev::routing::routingRenormalize::KernelParams<__nv_bfloat16, __nv_bfloat16, 8, true> >(moe::dev::routing::routingRenormalize::KernelParams<__nv_bfloat16, __nv_bfloat16, 8, true>)',
        'expert': ['bmm_Bfloat16_Bfloat16Bfloat16_Fp32_t128x8x128u2_s6_et128x8_m128x8x16_c1x1x1_16dp256b_rM_BN_transOut_schedS_sm100f',
                   'bmm_Bfloat16_Bfloat16Bfloat16_Fp32_t128x8x128u2_s5_et128x8_m128x8x16_c1x1x1_16dp256b_rM_BN_transOut_schedS_sm100f'],
        'moesum': 'void moe::dev::finalize::finalizeKernel<moe::dev::finalize::KernelParams<cutlass::bfloat16_t, cutlass::bfloat16_t> >(moe::dev::finalize::KernelParams<cutlass::bfloat16_t, cutlass::bfloat16_t>)',
        'ar': ['void sglang::cross_device_reduce_1stage<__nv_bfloat16, 8>(sglang::RankData*, sglang::RankSignals, sglang::Signal*, __nv_bfloat16*, int, int)',
               'ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)'],
        'gather': 'ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)',
        'mla_attn': 'void flashinfer::BatchMLAPagedAttentionKernel<flashinfer::KernelTraits<false, 512u, 64u, 64u, 128u, 2u, 1u, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, float, int, flashinfer::StandardAttention> >(flashinfer::MLAParams)',
        'mla_kvw': 'void (anonymous namespace)::set_mla_kv_buffer_kernel<__nv_bfloat16>(__nv_bfloat16*, __nv_bfloat16 const*, __nv_bfloat16 const*, long const*, int, int, int)',
        'gemms': NV_GEMMS,
    },
    'trtllm': {
        'embed': 'void tensorrt_llm::kernels::embeddingKernel<__nv_bfloat16>(__nv_bfloat16*, int const*, __nv_bfloat16 const*, int, int, int)',
        'norm0': 'void tensorrt_llm::kernels::generalRmsNorm<__nv_bfloat16, float, false, false>(__nv_bfloat16 const*, __nv_bfloat16 const*, __nv_bfloat16 const*, __nv_bfloat16*, float, int, int, float const*, float const*, __nv_bfloat16*)',
        'norm': 'void tensorrt_llm::kernels::generalFusedAddRmsNorm<__nv_bfloat16, float>(__nv_bfloat16*, __nv_bfloat16*, __nv_bfloat16 const*, float, int, int)',
        'qknorm': 'void tensorrt_llm::kernels::fusedQKNormRopeKernel<__nv_bfloat16, 128>(__nv_bfloat16*, int, int, int, float, __nv_bfloat16 const*, __nv_bfloat16 const*, float, int const*, int)',
        'rope': 'void tensorrt_llm::kernels::applyBiasRopeUpdateKVCacheV2<__nv_bfloat16, __nv_bfloat16, 128, 128, false, true, false>(tensorrt_llm::kernels::QKVPreprocessingParams<__nv_bfloat16, __nv_bfloat16>)',
        'kvw': None,
        'attn': ['fmhaSm100aKernel_QkvE4m3OBfloat16H128PagedKvCausalP16VarSeqQ128Kv128PersistentContext',
                 'void tensorrt_llm::kernels::mmha::masked_multihead_attention_kernel<__nv_bfloat16, __nv_bfloat16, tensorrt_llm::kernels::KVBlockArray, 128, 256, 4, false, false, false, false, 0u, false, false, false>(tensorrt_llm::kernels::Multihead_attention_params<__nv_bfloat16, false>, tensorrt_llm::kernels::KVBlockArray, tensorrt_llm::kernels::KVLinearBuffer)'],
        'attn2': 'xqa::kernel_mha_reduce',
        'swa': 'fmhaSm100aKernel_QkvE4m3OBfloat16H128PagedKvSlidingOrChunkedCausalP16VarSeqQ128Kv128PersistentContext',
        'act': 'void tensorrt_llm::kernels::doActivationKernel<__nv_bfloat16, tensorrt_llm::kernels::GLUAdaptor<cutlass::epilogue::thread::SiLu>, __nv_bfloat16, __nv_bfloat16>(__nv_bfloat16*, __nv_bfloat16 const*, float const*, float const*, bool, long const*, int, long, tensorrt_llm::ActivationParams)',
        'topk': 'void moe::dev::routing::routingDeepSeek::routingMainKernel<moe::dev::routing::routingDeepSeek::KernelParams<float, __nv_bfloat16, 8, true> >(moe::dev::routing::routingDeepSeek::KernelParams<float, __nv_bfloat16, 8, true>)',
        'align': 'void moe::dev::routing::routingIndicesClusterKernel<moe::dev::routing::routingDeepSeek::KernelParams<float, __nv_bfloat16, 8, true> >(moe::dev::routing::routingDeepSeek::KernelParams<float, __nv_bfloat16, 8, true>)',
        'expert': ['bmm_E4m3_E4m3E4m3_Fp32_t128x8x128u2_s6_et128x8_m128x8x32_c1x1x1_16dp256b_rM_BN_transOut_schedS_sm100a',
                   'bmm_Bfloat16_E4m3E4m3_Fp32_t128x8x128u2_s6_et128x8_m128x8x32_c1x1x1_16dp256b_rM_BN_transOut_schedS_sm100a'],
        'moesum': 'void moe::dev::finalize::finalizeKernelVecLoad<moe::dev::finalize::KernelParams<cutlass::bfloat16_t, cutlass::bfloat16_t> >(moe::dev::finalize::KernelParams<cutlass::bfloat16_t, cutlass::bfloat16_t>)',
        'ar': ['void tensorrt_llm::kernels::ar_fusion::allreduce_fusion_kernel_oneshot_lamport<tensorrt_llm::kernels::ar_fusion::AllReduceFusionPattern::kAllReduce, __nv_bfloat16, 8, true, false>(tensorrt_llm::kernels::ar_fusion::AllReduceFusionParams)'],
        'arnorm': 'void tensorrt_llm::kernels::ar_fusion::allreduce_fusion_kernel_oneshot_lamport<tensorrt_llm::kernels::ar_fusion::AllReduceFusionPattern::kARResidualRMSNorm, __nv_bfloat16, 8, true, false>(tensorrt_llm::kernels::ar_fusion::AllReduceFusionParams)',
        'gather': 'ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)',
        'mla_attn': 'fmhaSm100aKernel_QkvE4m3OBfloat16HQk576HV512PagedKvCausalP32MultiCtasKvCgaVarSeqQ128Kv128PersistentSwapsAbForGen',
        'mla_kvw': 'void tensorrt_llm::kernels::applyMLARopeAndAssignQKVKernelGeneration<__nv_bfloat16, 128, false>(tensorrt_llm::kernels::MlaParams<__nv_bfloat16>)',
        'gemms': NV_GEMMS,
    },
    'amd': {
        'embed': 'void at::native::(anonymous namespace)::indexSelectSmallIndex<c10::BFloat16, long, unsigned int, 2, 2, -2>(at::cuda::detail::TensorInfo<c10::BFloat16, unsigned int>, at::cuda::detail::TensorInfo<c10::BFloat16 const, unsigned int>, at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, unsigned int, long)',
        'norm0': '_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi256ELi16ELb0ELb0ELb1ELi1EEEvPT0_PT_PfS4_S4_S4_diiiiii',
        'norm': '_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi256ELi16ELb1ELb0ELb1ELi1EEEvPT0_PT_PfS4_S4_S4_diiiiii',
        'qknorm': '_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi64ELi8ELb0ELb0ELb1ELi1EEEvPT0_PT_PfS4_S4_S4_diiiiiii',
        'rope': 'void rotary_embedding_kernel<c10::BFloat16, true>(long const*, c10::BFloat16*, c10::BFloat16*, c10::BFloat16 const*, int, long, long, long, int, int, int)',
        'kvw': 'void (anonymous namespace)::store_kvcache<2048l, 4, false, long>((anonymous namespace)::StoreKVCacheParams)',
        'attn': ['void paged_attention_ll4mi_QKV_mfma16_kernel<0, __hip_bfloat16, __hip_bfloat16, (vllm::Fp8KVCacheDataType)0, unsigned char, 16, 128, 256, false, 4, false>(__hip_bfloat16 const*, unsigned char*, unsigned char*, int, float, int const*, int const*, int const*, int, float const*, int, int, int, float*, float*, __hip_bfloat16*, __hip_bfloat16*, int, float const*, float const*)',
                 '_ZN7ck_tile6kentryILi2ENS_38FmhaBatchPrefillWithPagedKVCacheKernelINS_40BlockFmhaBatchPrefillPipelineQRKSVSAsyncINS_33BlockFmhaPipelineProblemINS_6bf16_tES4_S4_fS4_fffS4_S4_S4_NS_13TileFmhaShapeE'],
        'attn2': 'void paged_attention_ll4mi_reduce_kernel<__hip_bfloat16, __hip_bfloat16, 128, 128, 256, 3, false>(__hip_bfloat16*, float const*, float const*, __hip_bfloat16 const*, int const*, int const*, int, float const*)',
        'swa': 'void paged_attention_ll4mi_QKV_mfma16_kernel<0, __hip_bfloat16, __hip_bfloat16, (vllm::Fp8KVCacheDataType)0, unsigned char, 16, 128, 256, true, 4, false>(__hip_bfloat16 const*, unsigned char*, unsigned char*, int, float, int const*, int const*, int const*, int, float const*, int, int, int, float*, float*, __hip_bfloat16*, __hip_bfloat16*, int, float const*, float const*)',
        'act': '_ZN7sgl_hip10activation18act_and_mul_kernelI14__hip_bfloat16TnPFT_RKS3_EXadL_Z4siluIS2_ES3_S5_EEEEvPS3_PS4_i',
        'topk': 'aiter::topksoftmax_4x128x8_bf16',
        'align': 'void ck_tile::kentry<2, ck_tile::MoeSortingKernel<ck_tile::MoeSortingProblemEx<int, float, 2, true, false, true, 1, 0> > >(ck_tile::MoeSortingKernel<ck_tile::MoeSortingProblemEx<int, float, 2, true, false, true, 1, 0> >::Kargs)',
        'expert': ['void ck::kernel_moe_gemm<ck::GridwiseMoeGemm<ck::tensor_layout::gemm::RowMajor, ck::tensor_layout::gemm::ColumnMajor, ck::Tuple<>, ck::tensor_layout::gemm::RowMajor, ck::bhalf_t, ck::bhalf_t, ck::Tuple<>, ck::bhalf_t, float, float, 256, 16, 128, 64, 8, 8, true, 0, 1, 0> >',
                   'void ck::kernel_moe_gemm<ck::GridwiseMoeGemm<ck::tensor_layout::gemm::RowMajor, ck::tensor_layout::gemm::ColumnMajor, ck::Tuple<>, ck::tensor_layout::gemm::RowMajor, ck::bhalf_t, ck::bhalf_t, ck::Tuple<>, ck::bhalf_t, float, float, 256, 16, 128, 64, 8, 8, false, 1, 1, 0> >'],
        'moesum': None,
        'ar': ['ncclDevKernel_Generic_4(ncclDevKernelArgsStorage<4096ul>)',
               'void vllm::cross_device_reduce_1stage<__hip_bfloat16, 8>(vllm::RankData*, vllm::RankSignals, vllm::Signal*, __hip_bfloat16*, int, int)'],
        'gather': 'ncclDevKernel_Generic_4(ncclDevKernelArgsStorage<4096ul>)',
        'mla_attn': 'void aiter::mla_decode_stage1_asm_fwd<__hip_bfloat16, 16>(aiter::MlaParams)',
        'mla_kvw': 'void (anonymous namespace)::concat_and_cache_mla_kernel<__hip_bfloat16>(__hip_bfloat16 const*, __hip_bfloat16 const*, __hip_bfloat16*, long const*, int, int, int)',
        'gemms': AMD_GEMMS,
    },
}
HF = {
    'copyf': 'void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#10}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>, 4, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#10}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1>)',
    'pow': 'void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::pow_tensor_scalar_kernel_impl<float, float>(at::TensorIteratorBase&, float)::{lambda(float)#2}, std::array<char*, 2ul> >(int, at::native::(anonymous namespace)::pow_tensor_scalar_kernel_impl<float, float>(at::TensorIteratorBase&, float)::{lambda(float)#2}, std::array<char*, 2ul>)',
    'mean': 'void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4>)',
    'addeps': 'void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctorOnSelf_add<float>, std::array<char*, 2ul> >(int, at::native::CUDAFunctorOnSelf_add<float>, std::array<char*, 2ul>)',
    'rsqrt': 'void at::native::vectorized_elementwise_kernel<4, at::native::rsqrt_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::rsqrt_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>)',
    'mulf': 'void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1})',
    'copyb': 'void at::native::vectorized_elementwise_kernel<4, at::native::bfloat16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::bfloat16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul>)',
    'mulb': 'void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1})',
    'neg': 'void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#10}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#10}::operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#10}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#10}::operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambda(int)#1})',
    'cat': 'void at::native::(anonymous namespace)::CatArrayBatchedCopy<at::native::(anonymous namespace)::OpaqueType<2u>, unsigned int, 4, 64, 64>(at::native::(anonymous namespace)::OpaqueType<2u>*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<at::native::(anonymous namespace)::OpaqueType<2u>, unsigned int, 64, 64>, at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)',
    'addb': 'void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)',
    'copyc': 'void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambda(int)#1})',
    'attn': 'void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t> >, false, true, false, false, false, true, false, false>(pytorch_flash::Flash_fwd_params)',
    'silu': 'void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::silu_kernel(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul> >(int, at::native::(anonymous namespace)::silu_kernel(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul>)',
    'embed': 'void at::native::(anonymous namespace)::indexSelectLargeIndex<c10::BFloat16, long, unsigned int, 2, 2, -2, true>(at::cuda::detail::TensorInfo<c10::BFloat16, unsigned int>, at::cuda::detail::TensorInfo<c10::BFloat16 const, unsigned int>, at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, unsigned int, unsigned int, long)',
    'softmax_topk': 'void at::native::sbtopk::gatherTopK<float, unsigned int, 2, false>(at::cuda::detail::TensorInfo<float const, unsigned int>, unsigned int, unsigned int, bool, unsigned int, unsigned int, at::cuda::detail::TensorInfo<float, unsigned int>, unsigned int, at::cuda::detail::TensorInfo<long, unsigned int>, unsigned int, float*)',
    'index_add': 'void at::native::indexFuncLargeIndex<c10::BFloat16, long, unsigned int, 2, 2, -2, true, at::native::ReduceAdd>(at::cuda::detail::TensorInfo<c10::BFloat16, unsigned int>, at::cuda::detail::TensorInfo<c10::BFloat16 const, unsigned int>, at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, unsigned int, unsigned int, long, at::native::ReduceAdd const&, c10::BFloat16)',
}
GDN = {
    'conv': ['void causal_conv1d_update_kernel<__nv_bfloat16, 4, true>(ConvParamsBase)', '_causal_conv1d_update_kernel'],
    'conv_p': '_causal_conv1d_fwd_kernel',
    'gating': 'fused_gdn_gating_kernel',
    'core': ['fused_recurrent_gated_delta_rule_fwd_kernel', 'fused_recurrent_gated_delta_rule_packed_decode_kernel'],
    'core_p': ['chunk_gated_delta_rule_fwd_kernel_h_blockdim64', 'chunk_fwd_kernel_o', 'chunk_scaled_dot_kkt_fwd_kernel', 'solve_tril_16x16_kernel'],
    'gnorm': '_layer_norm_fwd_1pass_kernel',
}
SSM = {
    'conv': 'void causal_conv1d_update_kernel<__nv_bfloat16, 4, true>(ConvParamsBase)',
    'conv_p': 'void causal_conv1d_fwd_kernel<Causal_conv1d_fwd_kernel_traits<128, 4, true, __nv_bfloat16, __nv_bfloat16> >(ConvParamsBase)',
    'core': '_selective_scan_update_kernel',
    'core_p': ['_chunk_cumsum_fwd_kernel', '_chunk_state_fwd_kernel', '_state_passing_fwd_kernel', '_chunk_scan_fwd_kernel'],
    'gnorm': '_layer_norm_fwd_1pass_kernel',
}
MLA_EXTRA = {
    'bmm': ['nvjet_tst_128x64_64x8_1x1_v_bz_NNN', 'void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_bf16_128x64_64x3_nn_align8>(cutlass_80_tensorop_bf16_s16816gemm_bf16_128x64_64x3_nn_align8::Params)'],
}
SIGMOID = 'void at::native::vectorized_elementwise_kernel<4, at::native::sigmoid_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul> >(int, at::native::sigmoid_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul>)'
ONCE = ['void flash::prepare_varlen_num_blocks_kernel<1, true>(int, int, int, int const*, int const*, int const*, int const*, int const*, int const*, int, int, int, int, int, cutlass::FastDivmod, cutlass::FastDivmod, int*, int*, int*, int*, bool)',
        'void flashinfer::PrefillPlanKernel<128u>(int*, int*, int, int)']

# roles an Inductor piece compiles into Triton kernels (the rest are extern:
# GEMMs, attention, cache writes, collectives, MoE library kernels)
FUSIBLE = {'norm', 'norm0', 'addnorm', 'qknorm', 'rope', 'act', 'gate', 'hfnorm', 'resid', 'final',
           'gating', 'gnorm', 'embed'}
GEMM_ROLES = {'qkv', 'o', 'gateup', 'down', 'router', 'lmhead', 'qa', 'qb', 'kva', 'bmm1', 'bmm2',
              'inproj', 'inproj2', 'outproj', 'sgateup', 'sdown'}


class Arch:
    """One architecture and one run of it, drawn from a seed."""

    def __init__(self, seed):
        r = self.r = random.Random(seed)
        self.seed = seed
        self.stack = r.choice(['vllm', 'vllm', 'sglang', 'sglang', 'trtllm', 'amd', 'amd', 'hf'])
        self.inductor = self.stack in ('vllm', 'sglang') and r.random() < 0.3
        depth_pool = [2, 3, 4, 6, 8, 12, 16, 24, 28, 32, 36, 40, 48, 61, 64, 80, 96]
        self.depth = r.choice(depth_pool)
        self.mla = self.stack != 'hf' and r.random() < 0.15
        self.qknorm = not self.mla and r.random() < 0.4
        # mixers
        h = r.random()
        self.mixers = ['attn'] * self.depth
        self.hybrid = 'none'
        if not self.mla and self.stack != 'hf' and h < 0.15:
            self.hybrid = r.choice(['gdn', 'ssm'])
            # Qwen3-Next / Qwen3.5: three linear layers per attention layer;
            # Jamba, Nemotron-H style: an attention layer every 4 to 8
            k = 4 if self.hybrid == 'gdn' else r.choice([4, 6, 8])
            self.mixers = ['attn' if (i + 1) % k == 0 else self.hybrid for i in range(self.depth)]
        elif not self.mla and h < 0.28:
            self.hybrid = 'swa'
            k = r.choice([2, 2, 6])
            same = r.random() < 0.4
            self.swa_same = same
            self.mixers = ['attn' if (i + 1) % k == 0 else ('attn' if same else 'swa')
                           for i in range(self.depth)]
        # MLPs
        m = r.random()
        self.mlps = ['dense'] * self.depth
        self.moe = 'none'
        if m < 0.45:
            # most MoE models route in every layer; DeepSeek-style keep the
            # first k dense; a few (Llama-4 Maverick, Jamba) every other
            self.moe = r.choice(['all'] * 6 + ['first_dense'] * 3 + ['every_other'])
            if self.moe == 'all':
                self.mlps = ['moe'] * self.depth
            elif self.moe == 'first_dense':
                k = r.choice([1, 2, 3])
                self.mlps = ['dense' if i < k else 'moe' for i in range(self.depth)]
            else:
                self.mlps = ['moe' if i % 2 else 'dense' for i in range(self.depth)]
        self.shared_expert = self.moe != 'none' and r.random() < 0.4
        self.second_stream = self.shared_expert and r.random() < 0.5
        self.hf_moe_loop = self.stack == 'hf' and self.moe != 'none'
        # norms
        if self.stack == 'hf':
            self.norm = 'hf'
        elif self.inductor:
            self.norm = 'inductor'
        else:
            self.norm = r.choice(['fused'] * 9 + ['separate'])
        # tensor parallel
        self.tp = 1 if self.stack == 'hf' else r.choice([1, 1, 2, 4, 8])
        self.ar_places = 0 if self.tp == 1 else r.choice([1, 2, 2])
        self.ar_norm = self.stack == 'trtllm' and self.tp > 1 and self.ar_places == 2 and r.random() < 0.6
        self.embed_ar = self.tp > 1
        # names of this build
        self.names = {}
        st = STACKS.get(self.stack, STACKS['vllm'])
        for role, v in st.items():
            if role == 'gemms':
                continue
            if isinstance(v, list):
                v = r.choice(v)
            self.names[role] = v
        gem = st['gemms']
        self.one_gemm = r.random() < 0.1     # every GEMM the same kernel (NVFP4 'gemm', hipBLASLt)
        pick = r.choice(gem)
        for g in sorted(GEMM_ROLES):
            self.names['gemm_' + g] = pick if self.one_gemm else r.choice(gem)
        # the LM head's vocabulary-wide GEMM gets a tile of its own
        self.names['gemm_lmhead'] = r.choice([g for g in gem if g != pick] or gem)
        self.names['bmm'] = r.choice(MLA_EXTRA['bmm'])
        for k, v in (GDN if self.hybrid == 'gdn' else SSM).items():
            self.names['lin_' + k] = r.choice(v) if isinstance(v, list) and not k.endswith('_p') else v
        self.combine = r.random() < 0.5      # decode attention with a split-KV combine
        # run
        self.graph = self.stack != 'hf' and r.random() < 0.4
        self.annotate = r.choice(['sglang', 'vllm', 'vllm', 'none']) if self.stack != 'hf' else \
            r.choice(['profilerstep', 'none'])
        plan = []
        if r.random() < 0.7:
            plan.append(('prefill', r.choice([17, 128, 512, 2048])))
        batch = r.choice([1, 4, 8, 16, 32])
        plan += [('decode', batch)] * r.randint(1, 3)
        self.plan = plan
        self.head_meta = [r.choice(ATEN_META) for _ in range(r.randint(0, 12))]
        self.sampler = [r.choice(SAMPLER) for _ in range(r.randint(1, 30))]
        self.once = r.choice([None, None, None, 'head', 'tail'])
        self.once_name = r.choice(ONCE)
        self.hidden = r.choice([1024, 2048, 4096, 5120, 7168])

    def describe(self):
        d = {k: v for k, v in vars(self).items() if k not in ('r', 'names', 'head_meta', 'sampler',
                                                          'mixers', 'mlps', 'once_name')}
        d['head_kernels'] = len(self.head_meta)
        d['sampler_kernels'] = len(self.sampler)
        d['layer_types'] = sorted(set(m + '+' + p for m, p in zip(self.mixers, self.mlps)))
        return d


# ------------------------------------------------------------ one layer
def layer_roles(a, li, stage):
    """(role, stream) of layer li, in launch order."""
    out = []
    mixer, mlp = a.mixers[li], a.mlps[li]
    prefill = stage == 'prefill'

    def add(role, stream=0):
        out.append((role, stream))

    # input norm (fused with the previous residual add, except in layer 0)
    if a.norm == 'hf':
        add('hfnorm')
    elif a.ar_norm and li > 0:
        add('ar_norm')   # the previous layer's all-reduce fused with this norm
    elif a.norm == 'fused' or a.norm == 'inductor':
        add('norm0' if li == 0 else 'norm')
    else:
        add('norm0')
    # mixer
    if mixer in ('gdn', 'ssm'):
        add('inproj')
        if mixer == 'gdn':
            add('inproj2')
        add('lin_conv')
        if mixer == 'gdn':
            add('gating')
        if prefill:
            for i in range(len(GDN['core_p'] if mixer == 'gdn' else SSM['core_p'])):
                add('lin_core_p%d' % i)
        else:
            add('lin_core')
        add('gnorm')
        add('outproj')
    elif a.mla:
        add('qa')
        add('qknorm')
        add('qknorm2')
        add('qb')
        add('bmm1')
        add('rope')
        add('mla_kvw')
        add('mla_attn')
        if not prefill and a.combine:
            add('attn2')
        add('bmm2')
        add('o')
    else:
        add('qkv')
        if a.stack == 'hf':
            add('qkv')
            add('qkv')
        if a.qknorm:
            add('qknorm')
            if a.stack != 'sglang':
                add('qknorm2')
        if a.stack == 'hf':
            add('rope_hf')
        else:
            add('rope')
            if a.names.get('kvw'):
                add('kvw')
        add('swa' if mixer == 'swa' else 'attn')
        if not prefill and a.combine and a.stack != 'hf':
            add('attn2')
        if a.hybrid == 'gdn':
            add('gate')
        add('o')
    if a.ar_places >= 1:
        add('ar_norm' if a.ar_norm else 'ar')
    elif a.stack == 'hf':
        add('resid')
    # post-attention norm
    if a.ar_norm:
        pass
    elif a.norm == 'hf':
        add('hfnorm')
    elif a.norm == 'separate':
        add('resid')
        add('norm0')
    else:
        add('norm')
    # MLP
    if mlp == 'dense':
        add('gateup')
        add('act')
        add('down')
    elif a.hf_moe_loop:
        add('router')
        add('softmax_topk')
        for e in range(2 + (li * 7 + (3 if prefill else 0)) % 3):
            add('hfexp_gateup')
            add('act')
            add('hfexp_down')
            add('index_add')
    else:
        add('router')
        add('topk')
        add('align')
        if a.shared_expert:
            s = 1 if a.second_stream else 0
            add('sgateup', s)
            add('act', s)
            add('sdown', s)
        add('expert1')
        if a.stack in ('vllm', 'amd'):
            add('act')
        add('expert2')
        if a.names.get('moesum'):
            add('moesum')
    if a.ar_places >= 2:
        if not a.ar_norm:
            add('ar')
    elif a.stack == 'hf' or a.norm == 'separate':
        add('resid')
    return out


def kernel_for(a, role, stage):
    """The kernel name of a role (extern kernels; Inductor names come later)."""
    n = a.names
    hf = a.stack == 'hf'
    if role in GEMM_ROLES:
        return n['gemm_' + role]
    if role in ('hfexp_gateup', 'hfexp_down'):
        return n['gemm_gateup' if role == 'hfexp_gateup' else 'gemm_down']
    if role in ('expert1', 'expert2'):
        if a.stack in ('sglang', 'trtllm', 'amd'):
            base = STACKS[a.stack]['expert']
            return base[0] if role == 'expert1' else base[1]
        return n['expert']
    if role == 'lin_conv':
        return n['lin_conv_p'] if stage == 'prefill' else n['lin_conv']
    if role == 'lin_core':
        return n['lin_core']
    if role.startswith('lin_core_p'):
        pool = GDN['core_p'] if a.hybrid == 'gdn' else SSM['core_p']
        return pool[int(role[len('lin_core_p'):])]
    if role == 'gating':
        return n['lin_gating']
    if role == 'gnorm':
        return n['lin_gnorm']
    if role == 'gate':
        return SIGMOID
    if role == 'qknorm2':
        return n['qknorm']
    if role == 'ar_norm':
        return STACKS['trtllm']['arnorm']
    if role == 'resid':
        return HF['addb']
    if role == 'rope_hf':
        return None  # several kernels, see expand()
    if role == 'swa':
        return n['attn'] if a.hybrid == 'swa' and a.swa_same else n['swa']
    if role in ('act',) and hf:
        return HF['silu']
    if role == 'attn' and hf:
        return HF['attn']
    if role in ('softmax_topk', 'index_add'):
        return HF[role]
    return n[role]


def expand(a, role, stage):
    """A role's kernels: most are one kernel, HF's unfused ones several."""
    if role == 'hfnorm':
        return [HF['copyf'], HF['pow'], HF['mean'], HF['addeps'], HF['rsqrt'], HF['mulf'], HF['copyb'], HF['mulb']]
    if role == 'rope_hf':
        return [HF['mulb'], HF['neg'], HF['cat'], HF['mulb'], HF['addb'], HF['mulb'], HF['neg'], HF['cat'],
                HF['mulb'], HF['addb'], HF['copyc'], HF['copyc']]
    if role == 'act' and a.stack == 'hf':
        return [HF['silu'], HF['mulb']]
    return [kernel_for(a, role, stage)]


# ------------------------------------------------------------ Inductor pieces
def inductor_names(a, seq):
    """Name the fusible kernels of a pass as Inductor's piecewise graphs do:
    pieces split at each attention core (the op outside the graph); inside a
    piece, the fusible kernels are triton_{poi,red,per}_fused_<ops>_<i>, i
    counting from 0 in each piece, and two pieces with the same roles are
    the same compiled graph, so the same names. seq: list of dicts with
    'role', 'fus' (fusible). Sets 'name' of the fusible ones."""
    cores = {'attn', 'swa', 'mla_attn', 'lin_core'}
    pieces, cur = [], []
    for k in seq:
        if k['role'] in cores or k['role'].startswith('lin_core_p') or k['role'] == 'attn2':
            if cur:
                pieces.append(cur)
            cur = []
            continue
        cur.append(k)
    if cur:
        pieces.append(cur)
    words = {'norm': ('red', 'add_mean_mul_pow_rsqrt'), 'norm0': ('red', '_to_copy_mean_mul_pow_rsqrt'),
             'qknorm': ('per', 'mean_mul_pow_rsqrt_view'), 'qknorm2': ('per', 'mean_mul_pow_rsqrt_view'),
             'rope': ('poi', 'add_cat_clone_mul'), 'act': ('poi', 'mul_silu'), 'gate': ('poi', 'mul_sigmoid'),
             'gating': ('poi', 'exp_log_softplus'), 'gnorm': ('per', 'mean_mul_pow_rsqrt_silu'),
             'final': ('red', 'add_mean_mul_pow_rsqrt'), 'embed': ('poi', 'embedding'),
             'resid': ('poi', 'add')}
    for p in pieces:
        i = 0
        for k in p:
            if not k['fus']:
                continue
            kind, ops = words.get(k['role'], ('poi', 'clone'))
            # a fusion may take in the kernel before it (a residual add into
            # the next norm): same name either way, the index says which
            k['name'] = 'triton_%s_fused_%s_%d' % (kind, ops, i)
            i += 1


# ------------------------------------------------------------ durations
def duration(a, r, role, stage, tok):
    big = stage == 'prefill'
    h = a.hidden / 4096.0
    base = {
        'qkv': 40, 'o': 30, 'gateup': 90, 'down': 60, 'router': 8, 'lmhead': 300, 'qa': 30,
        'qb': 25, 'bmm1': 12, 'bmm2': 12, 'inproj': 80, 'inproj2': 10, 'outproj': 30,
        'sgateup': 20, 'sdown': 15, 'expert1': 120, 'expert2': 70, 'hfexp_gateup': 25,
        'hfexp_down': 18, 'attn': 25, 'swa': 18, 'mla_attn': 40, 'lin_core': 28,
    }.get(role)
    if base is None:
        base = r.uniform(1.0, 4.0)
        if role in ('ar', 'ar_norm', 'gather'):
            base = r.uniform(8, 25)
        if role.startswith('lin_core_p'):
            base = r.uniform(20, 60)
    else:
        base *= h
        if big:
            base *= 1 + tok / 64.0
    return max(0.5, base * r.uniform(0.9, 1.1))


# ------------------------------------------------------------ the trace
OPS = {'qkv': 'aten::linear', 'o': 'aten::linear', 'gateup': 'aten::linear', 'down': 'aten::linear',
       'lmhead': 'aten::linear', 'embed': 'aten::embedding', 'attn': 'vllm::unified_attention',
       'swa': 'vllm::unified_attention', 'mla_attn': 'vllm::unified_attention',
       'ar': 'vllm::all_reduce', 'meta': 'aten::copy_', 'sample': 'aten::argmax'}

def build(a, random_names=False):
    r = random.Random(a.seed * 7919 + 13)
    events, gpu, truth_passes = [], [], []
    cpu_ts = 1_000_000.0
    ext = 100
    corr = 10_000
    CPU_PID, CPU_TID, GPU_PID = 4242, 4242, 0
    STREAMS = [7, 13]

    def x(cat, name, pid, tid, ts, dur, args=None):
        e = {'ph': 'X', 'cat': cat, 'name': name, 'pid': pid, 'tid': tid,
             'ts': round(ts, 3), 'dur': round(dur, 3)}
        if args is not None:
            e['args'] = args
        return e

    gpu_ts = cpu_ts + 50
    for pi, (stage, size) in enumerate(a.plan):
        tok = size
        seq = []   # dicts: role, layer (None: head/tail), stream, fus

        def put(role, layer, stream=0):
            seq.append({'role': role, 'layer': layer, 'stream': stream,
                        'fus': a.inductor and role in FUSIBLE})

        for m in a.head_meta:
            seq.append({'role': 'meta', 'layer': None, 'stream': 0, 'fus': False, 'name': m})
        if a.once == 'head':
            seq.append({'role': 'once', 'layer': None, 'stream': 0, 'fus': False, 'name': a.once_name})
        put('embed', None)
        if a.embed_ar:
            put('ar', None)
        for li in range(a.depth):
            for role, stream in layer_roles(a, li, stage):
                put(role, li, stream)
        if a.once == 'tail':
            seq.append({'role': 'once', 'layer': None, 'stream': 0, 'fus': False, 'name': a.once_name})
        if a.ar_norm:
            put('ar_norm', None)   # the last all-reduce fused with the final norm
        elif a.norm == 'hf':
            put('hfnorm', None)
        else:
            put('final', None)
        put('lmhead', None)
        if a.tp > 1:
            put('gather', None)
        for s in a.sampler:
            seq.append({'role': 'sample', 'layer': None, 'stream': 0, 'fus': False, 'name': s})
        if a.inductor:
            inductor_names(a, seq)
        # kernels: names and durations
        kern = []
        for k in seq:
            if 'name' in k:
                names = [k['name']]
            elif k['role'] == 'final':
                names = [a.names['norm0' if a.norm == 'separate' else 'norm']]
            else:
                names = expand(a, k['role'], stage)
            for nm in names:
                kern.append({'name': nm, 'layer': k['layer'], 'stream': k['stream'], 'role': k['role'],
                             'dur': duration(a, r, k['role'], stage, tok)})
        # times: the main stream one after another; a side-stream run starts
        # with the kernel before it and the main stream waits for it
        ann_ext = ext + 1
        ext += 1
        pass_cpu0 = cpu_ts
        t = gpu_ts
        side_t = side_end = None
        prev_start = t
        gpu_pass = []
        graph_corr = None
        for k in kern:
            eager = not a.graph or k['role'] in ('attn', 'swa', 'attn2', 'mla_attn', 'kvw', 'mla_kvw', 'meta',
                                                 'sample', 'once')
            corr += 1
            args = {'device': 0, 'stream': STREAMS[k['stream']],
                    'grid': [tok if k['role'] in ('kvw', 'mla_kvw') else 64, 1, 1], 'block': [128, 1, 1]}
            if eager:
                ext += 1
                args['External id'] = ext
                args['correlation'] = corr
                opname = OPS.get(k['role'], 'aten::' + k['role'])
                oargs = {'External id': ext, 'Record function id': 0}
                if opname == 'aten::linear':
                    oargs['Input Dims'] = [[tok, a.hidden], [a.hidden, a.hidden], []]
                events.append(x('cpu_op', opname, CPU_PID, CPU_TID, cpu_ts, 1.5, oargs))
                events.append(x('cuda_runtime', 'cudaLaunchKernel', CPU_PID, CPU_TID, cpu_ts + 0.2, 1.0,
                                {'External id': ext, 'correlation': corr}))
                cpu_ts += 2.0
                graph_corr = None
            else:
                if graph_corr is None:
                    graph_corr = corr
                    events.append(x('cuda_runtime', 'cudaGraphLaunch', CPU_PID, CPU_TID, cpu_ts, 2.0,
                                    {'correlation': graph_corr}))
                    cpu_ts += 2.5
                args['correlation'] = graph_corr
            dur = k['dur']
            if k['stream'] == 1:
                st = side_t if side_t is not None else prev_start + 0.2
                side_t = st + dur + 0.3
                side_end = side_t
            else:
                if side_end is not None and k['role'] not in ('expert1', 'expert2', 'act'):
                    t = max(t, side_end)
                    side_t = side_end = None
                st = t
                prev_start = st
                t = st + dur + r.uniform(0.3, 2.5)
            k['ts'] = round(st, 3)
            k['dur'] = round(dur, 3)
            gpu_pass.append(x('kernel', k['name'], GPU_PID, STREAMS[k['stream']], k['ts'], k['dur'], args))
        gpu_ts_end = max(e['ts'] + e['dur'] for e in gpu_pass)
        # truth: layers in start order
        order = sorted(range(len(kern)), key=lambda i: (kern[i]['ts'], i))
        layers = {}
        for pos, i in enumerate(order):
            k = kern[i]
            if k['layer'] is None:
                continue
            L = layers.setdefault(k['layer'], {'first_ts': k['ts'], 'last_end': 0.0, 'kernels': 0,
                                              'type': a.mixers[k['layer']] + '+' + a.mlps[k['layer']],
                                              'first': pos, 'last': pos})
            L['first_ts'] = min(L['first_ts'], k['ts'])
            L['last_end'] = max(L['last_end'], round(k['ts'] + k['dur'], 3))
            L['kernels'] += 1
            L['last'] = pos
        truth_passes.append({'stage': stage, 'size': size, 'kernels': len(kern),
                             'layers': [layers[i] for i in range(a.depth)],
                             'keys': [kern[i]['name'] for i in order],
                             'layer_of': [kern[i]['layer'] for i in order]})
        gpu += gpu_pass
        if a.annotate != 'none':
            if a.annotate == 'sglang':
                ann = 'step[EXTEND bs=1 toks=%d]' % tok if stage == 'prefill' else 'step[DECODE bs=%d]' % tok
            elif a.annotate == 'vllm':
                ann = ('execute_context_1(%d)_generation_0(0)' % tok if stage == 'prefill'
                       else 'execute_context_0(0)_generation_%d(%d)' % (tok, tok))
            else:
                ann = 'ProfilerStep#%d' % (pi + 3)
            events.append(x('user_annotation', ann, CPU_PID, CPU_TID, pass_cpu0 - 2, cpu_ts - pass_cpu0 + 4,
                            {'External id': ann_ext}))
            if a.annotate != 'profilerstep':
                gpu.append(x('gpu_user_annotation', ann, GPU_PID, STREAMS[0], gpu_ts - 1,
                             gpu_ts_end - gpu_ts + 2, {'External id': ann_ext}))
        cpu_ts = max(cpu_ts, gpu_ts_end) + 300.0
        gpu_ts = cpu_ts + 40.0

    if random_names:
        rr = random.Random(a.seed * 31 + 7)
        tok_of = {}
        alphabet = string.ascii_lowercase + string.digits
        for e in gpu:
            if e['cat'] == 'kernel':
                n = e['name']
                if n not in tok_of:
                    s = 'k' + ''.join(rr.choice(alphabet) for _ in range(rr.randint(6, 24)))
                    tok_of[n] = s
                e['name'] = tok_of[n]
        for p in truth_passes:
            p['keys'] = [tok_of[k] for k in p['keys']]
    gpu.sort(key=lambda e: (e['ts'], 0 if e['cat'] == 'gpu_user_annotation' else 1))
    doc = {
        'schemaVersion': 1,
        'deviceProperties': [{'id': 0, 'name': 'AMD Instinct MI300X' if a.stack == 'amd' else 'NVIDIA H100 80GB HBM3',
                              'totalGlobalMem': 85029158912, 'numSms': 304 if a.stack == 'amd' else 132,
                              'warpSize': 64 if a.stack == 'amd' else 32}],
        'traceEvents': [
            {'ph': 'M', 'name': 'process_name', 'pid': CPU_PID, 'tid': 0, 'args': {'name': 'python3'}},
            {'ph': 'M', 'name': 'process_name', 'pid': GPU_PID, 'tid': 0, 'args': {'name': 'GPU 0'}},
        ] + events + gpu,
    }
    if a.tp > 1:
        doc['distributedInfo'] = {'backend': 'nccl', 'rank': 0, 'world_size': a.tp}
    truth = {'seed': a.seed, 'random_names': random_names, 'arch': a.describe(),
             'layers_per_pass': a.depth, 'passes': truth_passes}
    return doc, truth


def write_trace(doc, out):
    out.write('{\n')
    for k, v in doc.items():
        if k != 'traceEvents':
            out.write(' %s: %s,\n' % (json.dumps(k), json.dumps(v)))
    out.write(' "traceEvents": [\n')
    ev = doc['traceEvents']
    for i, e in enumerate(ev):
        out.write('  ' + json.dumps(e) + (',\n' if i + 1 < len(ev) else '\n'))
    out.write(' ]\n}\n')


def main(argv):
    if not argv or argv[0] in ('-h', '--help'):
        sys.stdout.write(__doc__)
        return 0 if argv else 2
    seed = int(argv[0])
    rn = '--random-names' in argv
    out = truth = None
    if '-o' in argv:
        out = argv[argv.index('-o') + 1]
    if '--truth' in argv:
        truth = argv[argv.index('--truth') + 1]
    a = Arch(seed)
    if '--describe' in argv:
        print(json.dumps(a.describe(), indent=1))
        return 0
    doc, t = build(a, rn)
    if truth:
        with open(truth, 'w') as f:
            json.dump(t, f)
    if out:
        with open(out, 'w') as f:
            write_trace(doc, f)
    else:
        write_trace(doc, sys.stdout)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
