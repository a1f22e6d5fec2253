/*
 * Data tables for gen_trace.c: kernel names and launch shapes, CPU op
 * argument fragments and the program of one model step.  Kept apart from
 * the generator so the code reads without 2 KB template names in the way.
 *
 * Kernel names and argument shapes are copied from real SGLang decode traces
 * (Qwen3-30B-A3B, TP, bs=16) on NVIDIA B300 and AMD MI300X.
 */
#ifndef GEN_TRACE_TABLES_H
#define GEN_TRACE_TABLES_H

#include <stdint.h>

/* What a kernel does in the step.  Each platform maps a role to its own
 * kernel (or to none), so one step program serves both platforms. */
enum role {
    R_ARANGE, R_RESOLVE, R_CLAMP, R_FOREACH, R_ALLOC, R_TRITON, R_EMBED,
    R_NORM_IN, R_QKV, R_QKNORM, R_ROPE, R_ATTN, R_ATTN_REDUCE, R_OPROJ,
    R_OPROJ_REDUCE, R_ALLREDUCE, R_NORM_POST, R_ROUTER, R_TOPK, R_MOE_SORT,
    R_MOE_GEMM1, R_MOE_GEMM2, R_MOE_FINALIZE, R_NORM_FINAL, R_LMHEAD,
    R_CAST, R_ARGMAX, R_ADD, R_INDEX,
    R_COUNT,
    R_NONE = 255
};

enum stream_slot { S_MAIN, S_SIDE, S_COUNT };

/* Runtime API calls; each platform has its own names for them. */
enum api {
    API_LAUNCH, API_LAUNCH_EX, API_DRIVER, API_MEMCPY, API_MEMSET,
    API_IS_CAPTURING, API_EVENT_RECORD, API_STREAM_WAIT, API_STREAM_SYNC,
    API_COUNT
};

enum mem_kind { M_NONE, M_HTOD, M_DTOD, M_DTOH, M_SET, M_COUNT };

enum cpu_kind {
    C_NONE, C_SLICE, C_AS_STRIDED, C_VIEW, C_COPY, C_ARANGE, C_FOREACH,
    C_FILL, C_ALLOC, C_TRITON, C_INDEX_SELECT, C_ADD_RMSNORM, C_MM_QKV,
    C_QKNORM, C_ROPE, C_ATTN, C_MM_O, C_ALLREDUCE, C_MM_ROUTER, C_TOPK,
    C_FUSED_MOE, C_RMSNORM, C_MM_LMHEAD, C_TO_COPY, C_ARGMAX, C_ADD, C_INDEX,
    C_LOCAL_SCALAR,
    C_COUNT
};

struct kernel_def {
    const char *name;      /* NULL: the platform has no kernel for the role */
    uint32_t mean_ns;      /* typical duration in a decode step */
    uint8_t jitter_pct;    /* uniform +- jitter around the mean */
    uint8_t scales;        /* duration grows with tokens in EXTEND steps */
    uint8_t stream;        /* enum stream_slot */
    uint8_t api;           /* enum api that launches it */
    uint8_t collective;    /* NCCL kernel: carries the collective args */
    uint8_t occupancy;     /* "est. achieved occupancy %" */
    uint16_t regs;
    uint32_t smem;
    uint16_t grid[3];
    uint16_t block[3];
};

struct api_def {
    const char *name;
    const char *cat;       /* "cuda_runtime" or "cuda_driver" */
    uint16_t id;           /* cbid (NVIDIA) or cid (AMD) */
    char flow;             /* calls with no GPU work still get an 's' or 'f' */
};

struct mem_def {
    const char *name;      /* event name, e.g. "Memcpy HtoD (Pinned -> Device)" */
    const char *cat;       /* "gpu_memcpy" or "gpu_memset" */
    const char *kind;      /* contract's memory kind; AMD's args "kind" too */
    uint32_t bytes;
    uint32_t mean_ns;
};

struct cpu_def {
    const char *name;
    const char *args;      /* shape args between "Record function id" and "Ev Idx" */
};

/* One op of the step program: an optional cpu_op (with view-like cpu_ops
 * before it) that launches up to three kernels and/or one memcpy/memset. */
struct op_spec {
    uint8_t cpu;           /* enum cpu_kind; C_NONE: no cpu_op, no External id */
    uint8_t views;         /* aten::slice/as_strided cpu_ops that launch nothing */
    uint8_t roles[3];      /* R_NONE-padded */
    uint8_t mem;           /* enum mem_kind, issued after the kernels */
    uint8_t rt_before;     /* runtime call with no GPU work; API_COUNT = none */
    uint8_t rt_after;
};


/* ---- kernel names (real, copied from SGLang traces) ---- */

#define KN_RESOLVE \
    "void (anonymous namespace)::resolve_future_token_ids_kernel<long>" \
    "(long*, long const*, unsigned long)"
#define KN_CLAMP \
    "void (anonymous namespace)::clamp_position_kernel<long>(long*, " \
    "long const*, unsigned long)"
#define KN_TRITON "triton_poi_fused_add_bitwise_and_bitwise_not_bitwise_or_ge_lt_mul_sub_0"
#define KN_ALLREDUCE "ncclDevKernel_AllReduce_Sum_f32_RING_LL"
#define KN_NV_GEMM_QKV "nvjet_sm103_tst_64x16_64x16_4x1_v_bz_TNT"
#define KN_NV_GEMM_O "nvjet_sm103_tst_32x64_64x16_4x1_v_bz_splitK_TNN"
#define KN_NV_GEMM_ROUTER "nvjet_sm103_tst_16x64_64x8_2x1_v_bz_TNT"
#define KN_NV_GEMM_LMHEAD "nvjet_sm103_tst_384x16_64x4_4x1_v_bz_TNT"
#define KN_NV_QKNORM \
    "void (anonymous namespace)::fused_qknorm_warp<128l, true, __nv_bfloat16>" \
    "((anonymous namespace)::QKNormParams)"
#define KN_NV_ROPE \
    "void (anonymous namespace)::fused_rope_store_kernel<true, 128l, true, " \
    "__nv_bfloat16, long, 16u>((anonymous namespace)::FusedRopeStoreParams)"
#define KN_NV_ATTN \
    "fmhaSm100fKernel_QkvBfloat16OBfloat16H128PagedKvCausalP64MultiCtasKvCga" \
    "VarSeqQ8Kv128StaticSwapsAbForGen"
#define KN_NV_MOE_GEMM1 \
    "bmm_Bfloat16_Bfloat16Bfloat16_Fp32_t128x8x128u2_s6_et128x8_m128x8x16_" \
    "c1x1x1_16dp256b_rM_BN_transOut_schPd2x1x2x3_bN_ldgsts_ldgstsSf_rgTma_" \
    "clmp_swiGlu_dynB_sm100f"
#define KN_NV_MOE_GEMM2 \
    "bmm_Bfloat16_Bfloat16Bfloat16_Fp32_t128x8x128u2_s5_et128x8_m128x8x16_" \
    "c1x1x1_16dp256b_rM_BN_transOut_schPd2x1x2x3_bN_rgTma_clmp_dynB_sm100f"
#define KN_NV_ALLOC "alloc_decode_kernel"
#define KN_AMD_ALLOC "create_flashinfer_kv_indices_triton"
#define KN_AMD_NORM_IN \
    "_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi256ELi8ELb0ELb0ELb1ELi1EEE" \
    "vPT0_PT_PfS4_S4_S4_diiiiiiib"
#define KN_AMD_NORM_POST \
    "_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi256ELi8ELb1ELb0ELb1ELi1EEE" \
    "vPT0_PT_PfS4_S4_S4_diiiiiiib"
#define KN_AMD_NORM_FINAL \
    "void vllm::rms_norm_kernel<c10::BFloat16, 8, 1>(c10::BFloat16*, " \
    "c10::BFloat16 const*, long, c10::BFloat16 const*, float, int, int)"
#define KN_AMD_ROPE "_fused_qk_rope_reshape_and_cache_kernel"
#define KN_AMD_TOPK "aiter::topksoftmax_4x128x8_bf16"

#define KN_ARANGE \
    "void (anonymous namespace)::elementwise_kernel_with_index<int, " \
    "at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, " \
    "c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()() " \
    "const::{lambda()#4}::operator()() const::{lambda(long)#1}>(int, " \
    "at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, " \
    "c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()() " \
    "const::{lambda()#4}::operator()() const::{lambda(long)#1}, " \
    "function_traits<at::native::arange_cuda_out(c10::Scalar const&, " \
    "c10::Scalar const&, c10::Scalar const&, at::Tensor&)::{lambda()#1}::op" \
    "erator()() const::{lambda()#4}::operator()() " \
    "const::{lambda(long)#1}>::result_type*)"

#define KN_FOREACH \
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::" \
    "native::(anonymous namespace)::TensorListMetadata<2>, " \
    "at::native::(anonymous namespace)::UnaryOpFunctor<long, 2, 1, 1>, " \
    "at::native::Copy<long, long> >(at::native::(anonymous " \
    "namespace)::TensorListMetadata<2>, at::native::(anonymous " \
    "namespace)::UnaryOpFunctor<long, 2, 1, 1>, at::native::Copy<long, " \
    "long>)"

#define KN_INDEX \
    "void at::native::index_elementwise_kernel<128, 4, " \
    "at::native::gpu_index_kernel<at::native::index_kernel_impl<at::native:" \
    ":OpaqueType<4> >(at::TensorIteratorBase&, c10::ArrayRef<long>, " \
    "c10::ArrayRef<long>)::{lambda(char*, char const*, " \
    "long)#1}>(at::TensorIteratorBase&, c10::ArrayRef<long>, " \
    "c10::ArrayRef<long>, at::native::index_kernel_impl<at::native::OpaqueT" \
    "ype<4> >(at::TensorIteratorBase&, c10::ArrayRef<long>, " \
    "c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1} const&, " \
    "bool)::{lambda(int)#1}>(long, at::native::gpu_index_kernel<at::native:" \
    ":index_kernel_impl<at::native::OpaqueType<4> " \
    ">(at::TensorIteratorBase&, c10::ArrayRef<long>, " \
    "c10::ArrayRef<long>)::{lambda(char*, char const*, " \
    "long)#1}>(at::TensorIteratorBase&, c10::ArrayRef<long>, " \
    "c10::ArrayRef<long>, at::native::index_kernel_impl<at::native::OpaqueT" \
    "ype<4> >(at::TensorIteratorBase&, c10::ArrayRef<long>, " \
    "c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1} const&, " \
    "bool)::{lambda(int)#1})"

#define KN_EMBED \
    "void at::native::(anonymous namespace)::indexSelectSmallIndex<c10::BFl" \
    "oat16, long, unsigned int, 2, 2, -2>(at::cuda::detail::TensorInfo<c10:" \
    ":BFloat16, unsigned int>, at::cuda::detail::TensorInfo<c10::BFloat16 " \
    "const, unsigned int>, at::cuda::detail::TensorInfo<long const, " \
    "unsigned int>, int, int, unsigned int, long)"

#define KN_NV_RMSNORM \
    "kernel_cutlass_kernel_flashinfernormkernelsrmsnormRMSNormKernel_object" \
    "_at__tensorptrbf16gmemalign128o204820481_tensorptrbf16gmemalign16o2048" \
    "1_tensorptrbf16gmemalign128o204820481___True_4__0"

#define KN_NV_SPLITK_REDUCE \
    "void cublasLt::splitKreduce_kernel<32, 16, int, float, __nv_bfloat16, " \
    "float, __nv_bfloat16, false, float, __nv_bfloat16, __nv_bfloat16, " \
    "true, false, false, false>(cublasLt::cublasSplitKParams<float>, float " \
    "const*, __nv_bfloat16 const*, float*, __nv_bfloat16*, float const*, " \
    "float const*, __nv_bfloat16 const*, float const*, __nv_bfloat16*, " \
    "void*, long, float*, int*, float*, float*, float const*, float " \
    "const*, float const*, float const*, float const*)"

#define KN_NV_FUSED_ADD_RMSNORM \
    "kernel_cutlass_kernel_flashinfernormkernelsfused_add_rmsnormFusedAddRM" \
    "SNormKernel_object_at__tensorptrbf16gmemalign128o204820481_tensorptrbf" \
    "16gmemalign128o204820481_tensorptrbf16gmemalign_0"

#define KN_NV_MOE_ROUTING \
    "void moe::dev::routing::routingCustom::routingIndicesDynBlockKernel<mo" \
    "e::dev::routing::routingCustom::KernelParams<__nv_bfloat16, " \
    "__nv_bfloat16, 128, 8, moe::dev::routing::TopKExpertSelect<moe::dev::r" \
    "outing::NoOpPreprocess, moe::dev::routing::SoftmaxPostprocess> > " \
    ">(moe::dev::routing::routingCustom::KernelParams<__nv_bfloat16, " \
    "__nv_bfloat16, 128, 8, moe::dev::routing::TopKExpertSelect<moe::dev::r" \
    "outing::NoOpPreprocess, moe::dev::routing::SoftmaxPostprocess> >)"

#define KN_NV_MOE_FINALIZE \
    "void moe::dev::finalize::finalizeKernel<moe::dev::finalize::KernelPara" \
    "ms<cutlass::bfloat16_t, cutlass::bfloat16_t, 4, true> " \
    ">(moe::dev::finalize::KernelParams<cutlass::bfloat16_t, " \
    "cutlass::bfloat16_t, 4, true>)"

#define KN_NV_CAST \
    "void at::native::unrolled_elementwise_kernel<at::native::direct_copy_k" \
    "ernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() " \
    "const::{lambda()#7}::operator()() const::{lambda(float)#1}, " \
    "std::array<char*, 2ul>, 4, TrivialOffsetCalculator<1, unsigned int>, " \
    "TrivialOffsetCalculator<1, unsigned int>, " \
    "at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast" \
    "<1> >(int, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&" \
    ")::{lambda()#3}::operator()() const::{lambda()#7}::operator()() " \
    "const::{lambda(float)#1}, std::array<char*, 2ul>, " \
    "TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, " \
    "unsigned int>, at::native::memory::LoadWithCast<1>, " \
    "at::native::memory::StoreWithCast<1>)"

#define KN_ARGMAX \
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, " \
    "at::native::ArgMaxOps<float>, unsigned int, long, 4, 4> " \
    ">(at::native::ReduceOp<float, at::native::ArgMaxOps<float>, unsigned " \
    "int, long, 4, 4>)"

#define KN_NV_ADD \
    "void at::native::vectorized_elementwise_kernel<2, " \
    "at::native::CUDAFunctorOnSelf_add<long>, std::array<char*, 2ul> " \
    ">(int, at::native::CUDAFunctorOnSelf_add<long>, std::array<char*, " \
    "2ul>)"

#define KN_AMD_GEMM_QKV \
    "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT64x16x256_MI16x16x1_SN_" \
    "LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_EPS0_F" \
    "DSI0_GRPM1_GRVWA8_GRVWB8_GSUAMBSK_GLS0_ISA942_IU1_K1_LDSTI0_LBSPPA2048" \
    "_LBSPPB512_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT4_1_MO40_NT" \
    "n1_NTA0_NTB0_NTC0_NTD4_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_S" \
    "IA3_SS1_SPO0_SRVW0_SSO0_SVW4_SK0_SKFTR0_SKXCCM0_TLDS1_ULSGRO1_USL1_UIO" \
    "FGRO0_USFGROn1_VSn1_VWA4_VWB1_WSGRA0_WSGRB0_WS64_WG16_4_4"

#define KN_AMD_ATTN \
    "void paged_attention_ll4mi_QKV_mfma16_kernel<0, __hip_bfloat16, " \
    "__hip_bfloat16, (vllm::Fp8KVCacheDataType)0, 1, 128, 256, false, 8, " \
    "1, ck_tile::ComposedAttention<0u, false> >(__hip_bfloat16 const*, " \
    "__hip_bfloat16 const*, __hip_bfloat16 const*, float, int const*, int " \
    "const*, int const*, float const*, int, int, int, int, float*, float*, " \
    "__hip_bfloat16*, float, float, float const*, float const*, float " \
    "const*, ck_tile::ComposedAttention<0u, false> const*)"

#define KN_AMD_ATTN_REDUCE \
    "void paged_attention_ll4mi_reduce_kernel<__hip_bfloat16, " \
    "__hip_bfloat16, 128, 128, 256, 3, false>(__hip_bfloat16*, float " \
    "const*, float const*, __hip_bfloat16 const*, int const*, int const*, " \
    "int, int, float const*)"

#define KN_AMD_GEMM_O \
    "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT32x16x256_MI16x16x1_SN_" \
    "LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_EPS0_F" \
    "DSI0_GRPM1_GRVWA8_GRVWB8_GSUAMBSK_GLS0_ISA942_IU1_K1_LDSTI0_LBSPPA1024" \
    "_LBSPPB512_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT2_1_MO40_NT" \
    "n1_NTA0_NTB0_NTC0_NTD4_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_S" \
    "IA3_SS1_SPO0_SRVW0_SSO0_SVW2_SK0_SKFTR0_SKXCCM0_TLDS1_ULSGRO1_USL1_UIO" \
    "FGRO0_USFGROn1_VSn1_VWA2_VWB1_WSGRA0_WSGRB0_WS64_WG16_4_4"

#define KN_AMD_GEMM_ROUTER \
    "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT16x16x512_MI16x16x1_SN_" \
    "LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_EPS0_F" \
    "DSI0_GRPM1_GRVWA8_GRVWB8_GSUAMBSK_GLS0_ISA942_IU1_K1_LDSTI0_LBSPPA1024" \
    "_LBSPPB1024_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT1_1_MO40_N" \
    "Tn1_NTA0_NTB0_NTC0_NTD4_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_" \
    "SIA3_SS1_SPO0_SRVW0_SSO0_SVW1_SK0_SKFTR0_SKXCCM0_TLDS1_ULSGRO1_USL1_UI" \
    "OFGRO0_USFGROn1_VSn1_VWA1_VWB1_WSGRA0_WSGRB0_WS64_WG16_4_4"

#define KN_AMD_MOE_SORT \
    "void ck_tile::kentry<2, ck_tile::MoeSortingKernel<ck_tile::MoeSortingP" \
    "roblemEx<int, float, 2, true, false, false, true, 0> >, " \
    "ck_tile::MoeSortingKernel<ck_tile::MoeSortingProblemEx<int, float, 2, " \
    "true, false, false, true, 0> >::Kargs>(ck_tile::MoeSortingKernel<ck_ti" \
    "le::MoeSortingProblemEx<int, float, 2, true, false, false, true, 0> " \
    ">::Kargs)"

#define KN_AMD_MOE_GEMM1 \
    "void ck::kernel_moe_gemm<ck::GridwiseMoeGemm<ck::tensor_layout::gemm::" \
    "RowMajor, ck::tensor_layout::gemm::ColumnMajor, " \
    "ck::Tuple<ck::tensor_layout::gemm::RowMajor, " \
    "ck::tensor_layout::gemm::ColumnMajor, ck::tensor_layout::gemm::RowMajo" \
    "r>, ck::tensor_layout::gemm::RowMajor, unsigned short, unsigned " \
    "short, float, float, ck::Tuple<float, float, float>, unsigned short, " \
    "ck::tensor_operation::element_wise::PassThrough, " \
    "ck::tensor_operation::element_wise::PassThrough, TypeCast, " \
    "(ck::tensor_operation::device::GemmSpecialization)0, 256, 32, 64, 64, " \
    "8, 8, 16, 16, 2, 1, ck::Sequence<8, 32, 1>, ck::Sequence<1, 0, 2>, " \
    "ck::Sequence<1, 0, 2>, 2, 8, 8, false, 0, ck::Sequence<8, 32, 1>, " \
    "ck::Sequence<1, 0, 2>, ck::Sequence<1, 0, 2>, 2, 8, 8, false, 0, 2, " \
    "1, ck::Sequence<1, 32, 1, 8>, ck::Sequence<8, 1, 8>, " \
    "(ck::BlockGemmPipelineScheduler)0, (ck::BlockGemmPipelineVersion)0, " \
    "1, false, true, false, true, int, unsigned short, unsigned short, " \
    "unsigned short, unsigned short>, true, (ck::InMemoryDataOperationEnum)" \
    "0, 2, (ck::TailNumber)1>(ck::GridwiseMoeGemm<ck::tensor_layout::gemm::" \
    "RowMajor, ck::tensor_layout::gemm::ColumnMajor, " \
    "ck::Tuple<ck::tensor_layout::gemm::RowMajor, " \
    "ck::tensor_layout::gemm::ColumnMajor, ck::tensor_layout::gemm::RowMajo" \
    "r>, ck::tensor_layout::gemm::RowMajor, unsigned short, unsigned " \
    "short, float, float, ck::Tuple<float, float, float>, unsigned short, " \
    "ck::tensor_operation::element_wise::PassThrough, " \
    "ck::tensor_operation::element_wise::PassThrough, TypeCast, " \
    "(ck::tensor_operation::device::GemmSpecialization)0, 256, 32, 64, 64, " \
    "8, 8, 16, 16, 2, 1, ck::Sequence<8, 32, 1>, ck::Sequence<1, 0, 2>, " \
    "ck::Sequence<1, 0, 2>, 2, 8, 8, false, 0, ck::Sequence<8, 32, 1>, " \
    "ck::Sequence<1, 0, 2>, ck::Sequence<1, 0, 2>, 2, 8, 8, false, 0, 2, " \
    "1, ck::Sequence<1, 32, 1, 8>, ck::Sequence<8, 1, 8>, " \
    "(ck::BlockGemmPipelineScheduler)0, (ck::BlockGemmPipelineVersion)0, " \
    "1, false, true, false, true, int, unsigned short, unsigned short, " \
    "unsigned short, unsigned short>::Argument)"

#define KN_AMD_MOE_GEMM2 \
    "void ck::kernel_moe_gemm<ck::GridwiseMoeGemm<ck::tensor_layout::gemm::" \
    "RowMajor, ck::tensor_layout::gemm::ColumnMajor, " \
    "ck::Tuple<ck::tensor_layout::gemm::RowMajor, " \
    "ck::tensor_layout::gemm::ColumnMajor, ck::tensor_layout::gemm::RowMajo" \
    "r>, ck::tensor_layout::gemm::RowMajor, unsigned short, unsigned " \
    "short, float, float, ck::Tuple<float, float, float>, unsigned short, " \
    "ck::tensor_operation::element_wise::PassThrough, " \
    "ck::tensor_operation::element_wise::PassThrough, " \
    "TypeCastExpertWeight, (ck::tensor_operation::device::GemmSpecializatio" \
    "n)0, 256, 32, 64, 64, 8, 8, 16, 16, 2, 1, ck::Sequence<8, 32, 1>, " \
    "ck::Sequence<1, 0, 2>, ck::Sequence<1, 0, 2>, 2, 8, 8, false, 0, " \
    "ck::Sequence<8, 32, 1>, ck::Sequence<1, 0, 2>, ck::Sequence<1, 0, 2>, " \
    "2, 8, 8, false, 0, 2, 1, ck::Sequence<1, 8, 1, 32>, ck::Sequence<2, " \
    "1, 2, 1>, (ck::BlockGemmPipelineScheduler)0, " \
    "(ck::BlockGemmPipelineVersion)0, 0, false, false, true, true, int, " \
    "unsigned short, unsigned short, unsigned short, unsigned short>, " \
    "true, (ck::InMemoryDataOperationEnum)1, 2, " \
    "(ck::TailNumber)1>(ck::GridwiseMoeGemm<ck::tensor_layout::gemm::RowMaj" \
    "or, ck::tensor_layout::gemm::ColumnMajor, " \
    "ck::Tuple<ck::tensor_layout::gemm::RowMajor, " \
    "ck::tensor_layout::gemm::ColumnMajor, ck::tensor_layout::gemm::RowMajo" \
    "r>, ck::tensor_layout::gemm::RowMajor, unsigned short, unsigned " \
    "short, float, float, ck::Tuple<float, float, float>, unsigned short, " \
    "ck::tensor_operation::element_wise::PassThrough, " \
    "ck::tensor_operation::element_wise::PassThrough, " \
    "TypeCastExpertWeight, (ck::tensor_operation::device::GemmSpecializatio" \
    "n)0, 256, 32, 64, 64, 8, 8, 16, 16, 2, 1, ck::Sequence<8, 32, 1>, " \
    "ck::Sequence<1, 0, 2>, ck::Sequence<1, 0, 2>, 2, 8, 8, false, 0, " \
    "ck::Sequence<8, 32, 1>, ck::Sequence<1, 0, 2>, ck::Sequence<1, 0, 2>, " \
    "2, 8, 8, false, 0, 2, 1, ck::Sequence<1, 8, 1, 32>, ck::Sequence<2, " \
    "1, 2, 1>, (ck::BlockGemmPipelineScheduler)0, " \
    "(ck::BlockGemmPipelineVersion)0, 0, false, false, true, true, int, " \
    "unsigned short, unsigned short, unsigned short, unsigned " \
    "short>::Argument)"

#define KN_AMD_GEMM_LMHEAD \
    "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT128x16x128_MI16x16x1_SN" \
    "_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_EPS0_" \
    "FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMBSK_GLS0_ISA942_IU1_K1_LDSTI0_LBSPPA102" \
    "4_LBSPPB256_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT4_1_MO40_N" \
    "Tn1_NTA0_NTB0_NTC0_NTD4_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_" \
    "SIA3_SS1_SPO0_SRVW0_SSO0_SVW4_SK0_SKFTR0_SKXCCM0_TLDS1_ULSGRO0_USL1_UI" \
    "OFGRO0_USFGROn1_VSn1_VWA4_VWB1_WSGRA0_WSGRB0_WS64_WG32_4_2"

#define KN_AMD_CAST \
    "void at::native::vectorized_elementwise_kernel<4, " \
    "at::native::bfloat16tofloat32_copy_kernel_cuda(at::TensorIteratorBase&" \
    ")::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul> >(int, " \
    "at::native::bfloat16tofloat32_copy_kernel_cuda(at::TensorIteratorBase&" \
    ")::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul>)"

#define KN_AMD_ADD \
    "void at::native::vectorized_elementwise_kernel<4, " \
    "at::native::CUDAFunctorOnSelf_add<long>, std::array<char*, 2ul> " \
    ">(int, at::native::CUDAFunctorOnSelf_add<long>, std::array<char*, " \
    "2ul>)"

/* ---- per-platform tables ---- */

/* Shorthands for the kernel tables: grid and block triples. */
#define G(x, y, z) { x, y, z }

/* name, mean_ns, jitter%, scales, stream, api, collective, occupancy,
 * regs, smem, grid, block */
static const struct kernel_def nv_kernels[R_COUNT] = {
    [R_ARANGE] = { KN_ARANGE, 1000, 10, 0, S_MAIN, API_LAUNCH, 0, 0,
                   16, 0, G(1, 1, 1), G(64, 1, 1) },
    [R_RESOLVE] = { KN_RESOLVE, 2400, 15, 0, S_MAIN, API_LAUNCH_EX, 0, 0,
                    16, 0, G(1, 1, 1), G(256, 1, 1) },
    [R_CLAMP] = { KN_CLAMP, 1860, 15, 0, S_MAIN, API_LAUNCH_EX, 0, 0,
                  16, 0, G(1, 1, 1), G(256, 1, 1) },
    [R_FOREACH] = { KN_FOREACH, 1540, 15, 0, S_MAIN, API_LAUNCH, 0, 1,
                    32, 0, G(4, 1, 1), G(512, 1, 1) },
    [R_ALLOC] = { KN_NV_ALLOC, 3390, 20, 0, S_MAIN, API_DRIVER, 0, 1,
                  18, 0, G(16, 1, 1), G(128, 1, 1) },
    [R_TRITON] = { KN_TRITON, 2200, 20, 0, S_SIDE, API_DRIVER, 0, 0,
                   24, 0, G(1, 1, 1), G(128, 1, 1) },
    [R_EMBED] = { KN_EMBED, 12400, 10, 1, S_MAIN, API_LAUNCH, 0, 1,
                  28, 0, G(16, 1, 1), G(128, 1, 1) },
    [R_NORM_IN] = { KN_NV_FUSED_ADD_RMSNORM, 3400, 12, 1, S_MAIN, API_LAUNCH_EX,
                    0, 0, 128, 32784, G(4, 1, 1), G(128, 1, 1) },
    [R_QKV] = { KN_NV_GEMM_QKV, 6590, 12, 1, S_MAIN, API_LAUNCH_EX, 0, 0,
                255, 172552, G(80, 1, 1), G(256, 1, 1) },
    [R_QKNORM] = { KN_NV_QKNORM, 3070, 15, 1, S_MAIN, API_LAUNCH, 0, 6,
                   28, 0, G(144, 1, 1), G(128, 1, 1) },
    [R_ROPE] = { KN_NV_ROPE, 2310, 15, 1, S_MAIN, API_LAUNCH, 0, 3,
                 32, 0, G(80, 1, 1), G(128, 1, 1) },
    [R_ATTN] = { KN_NV_ATTN, 9450, 10, 1, S_MAIN, API_LAUNCH_EX, 0, 0,
                 128, 174696, G(2, 4, 16), G(512, 1, 1) },
    [R_OPROJ] = { KN_NV_GEMM_O, 5480, 25, 1, S_MAIN, API_LAUNCH_EX, 0, 0,
                  255, 205184, G(128, 1, 1), G(256, 1, 1) },
    [R_OPROJ_REDUCE] = { KN_NV_SPLITK_REDUCE, 3150, 20, 1, S_MAIN, API_LAUNCH,
                         0, 11, 32, 0, G(64, 1, 1), G(32, 16, 1) },
    [R_ALLREDUCE] = { KN_ALLREDUCE, 11800, 45, 1, S_MAIN, API_LAUNCH_EX, 1, 0,
                      96, 87568, G(8, 1, 1), G(544, 1, 1) },
    [R_NORM_POST] = { KN_NV_FUSED_ADD_RMSNORM, 3400, 12, 1, S_MAIN,
                      API_LAUNCH_EX, 0, 0, 128, 32784, G(4, 1, 1), G(128, 1, 1) },
    [R_ROUTER] = { KN_NV_GEMM_ROUTER, 4020, 15, 1, S_MAIN, API_LAUNCH_EX, 0, 0,
                   255, 98304, G(32, 1, 1), G(128, 1, 1) },
    [R_TOPK] = { KN_NV_MOE_ROUTING, 5070, 8, 1, S_MAIN, API_LAUNCH_EX, 0, 0,
                 32, 6304, G(1, 1, 1), G(512, 1, 1) },
    [R_MOE_GEMM1] = { KN_NV_MOE_GEMM1, 45730, 40, 1, S_MAIN, API_LAUNCH_EX, 0, 0,
                      168, 215504, G(12, 128, 1), G(384, 1, 1) },
    [R_MOE_GEMM2] = { KN_NV_MOE_GEMM2, 24600, 40, 1, S_MAIN, API_LAUNCH_EX, 0, 0,
                      255, 180656, G(16, 128, 1), G(256, 1, 1) },
    [R_MOE_FINALIZE] = { KN_NV_MOE_FINALIZE, 4880, 12, 1, S_MAIN,
                         API_LAUNCH_EX, 0, 11, 32, 0, G(8, 16, 1), G(256, 1, 1) },
    [R_NORM_FINAL] = { KN_NV_RMSNORM, 2850, 10, 1, S_MAIN, API_LAUNCH_EX, 0, 0,
                       56, 16400, G(4, 1, 1), G(128, 1, 1) },
    [R_LMHEAD] = { KN_NV_GEMM_LMHEAD, 102370, 5, 0, S_MAIN, API_LAUNCH_EX, 0, 0,
                   255, 221416, G(396, 1, 1), G(256, 1, 1) },
    [R_CAST] = { KN_NV_CAST, 8640, 10, 0, S_MAIN, API_LAUNCH, 0, 100,
                 30, 0, G(4748, 1, 1), G(128, 1, 1) },
    [R_ARGMAX] = { KN_ARGMAX, 10240, 10, 0, S_MAIN, API_LAUNCH, 0, 51,
                   32, 8208, G(16, 19, 1), G(32, 16, 1) },
    [R_ADD] = { KN_NV_ADD, 2470, 20, 0, S_MAIN, API_LAUNCH, 0, 0,
                40, 0, G(1, 1, 1), G(128, 1, 1) },
    [R_INDEX] = { KN_INDEX, 4180, 10, 0, S_MAIN, API_LAUNCH, 0, 0,
                  42, 0, G(1, 1, 1), G(128, 1, 1) },
};

/* AMD kernel args carry no register/occupancy figures; only grid, block and
 * (in hipLaunchKernel) shared memory are used. */
static const struct kernel_def amd_kernels[R_COUNT] = {
    [R_ARANGE] = { KN_ARANGE, 2760, 10, 0, S_MAIN, API_LAUNCH, 0, 0,
                   0, 0, G(1, 1, 1), G(128, 1, 1) },
    [R_RESOLVE] = { KN_RESOLVE, 2520, 10, 0, S_MAIN, API_LAUNCH, 0, 0,
                    0, 0, G(1, 1, 1), G(256, 1, 1) },
    [R_CLAMP] = { KN_CLAMP, 2640, 10, 0, S_MAIN, API_LAUNCH, 0, 0,
                  0, 0, G(1, 1, 1), G(256, 1, 1) },
    [R_FOREACH] = { KN_FOREACH, 3280, 15, 0, S_MAIN, API_LAUNCH, 0, 0,
                    0, 0, G(4, 1, 1), G(512, 1, 1) },
    [R_ALLOC] = { KN_AMD_ALLOC, 5200, 20, 0, S_MAIN, API_DRIVER, 0, 0,
                  0, 2048, G(16, 1, 1), G(256, 1, 1) },
    [R_TRITON] = { KN_TRITON, 3000, 20, 0, S_SIDE, API_DRIVER, 0, 0,
                   0, 0, G(1, 1, 1), G(128, 1, 1) },
    [R_EMBED] = { KN_EMBED, 11880, 10, 1, S_MAIN, API_LAUNCH, 0, 0,
                  0, 0, G(16, 1, 1), G(128, 1, 1) },
    [R_NORM_IN] = { KN_AMD_NORM_IN, 4430, 12, 1, S_MAIN, API_LAUNCH, 0, 0,
                    0, 0, G(16, 1, 1), G(256, 1, 1) },
    [R_QKV] = { KN_AMD_GEMM_QKV, 11940, 12, 1, S_MAIN, API_LAUNCH_EX, 0, 0,
                0, 0, G(80, 1, 1), G(256, 1, 1) },
    [R_ROPE] = { KN_AMD_ROPE, 4600, 15, 1, S_MAIN, API_DRIVER, 0, 0,
                 0, 0, G(16, 1, 1), G(128, 1, 1) },
    [R_ATTN] = { KN_AMD_ATTN, 17700, 12, 1, S_MAIN, API_LAUNCH, 0, 0,
                 0, 0, G(16, 4, 8), G(256, 1, 1) },
    [R_ATTN_REDUCE] = { KN_AMD_ATTN_REDUCE, 4450, 10, 1, S_MAIN, API_LAUNCH,
                        0, 0, 0, 0, G(16, 4, 1), G(128, 1, 1) },
    [R_OPROJ] = { KN_AMD_GEMM_O, 10630, 15, 1, S_MAIN, API_LAUNCH_EX, 0, 0,
                  0, 0, G(128, 1, 1), G(256, 1, 1) },
    [R_ALLREDUCE] = { KN_ALLREDUCE, 17600, 45, 1, S_MAIN, API_LAUNCH, 1, 0,
                      0, 0, G(16, 1, 1), G(256, 1, 1) },
    [R_NORM_POST] = { KN_AMD_NORM_POST, 4480, 12, 1, S_MAIN, API_LAUNCH, 0, 0,
                      0, 0, G(16, 1, 1), G(256, 1, 1) },
    [R_ROUTER] = { KN_AMD_GEMM_ROUTER, 7030, 15, 1, S_MAIN, API_LAUNCH_EX, 0, 0,
                   0, 0, G(32, 1, 1), G(256, 1, 1) },
    [R_TOPK] = { KN_AMD_TOPK, 4290, 8, 1, S_MAIN, API_LAUNCH, 0, 0,
                 0, 0, G(4, 1, 1), G(256, 1, 1) },
    [R_MOE_SORT] = { KN_AMD_MOE_SORT, 7860, 8, 1, S_MAIN, API_LAUNCH, 0, 0,
                     0, 0, G(1, 1, 1), G(1024, 1, 1) },
    [R_MOE_GEMM1] = { KN_AMD_MOE_GEMM1, 79600, 60, 1, S_MAIN, API_LAUNCH, 0, 0,
                      0, 0, G(24, 128, 1), G(256, 1, 1) },
    [R_MOE_GEMM2] = { KN_AMD_MOE_GEMM2, 39280, 50, 1, S_MAIN, API_LAUNCH, 0, 0,
                      0, 0, G(32, 128, 1), G(256, 1, 1) },
    [R_NORM_FINAL] = { KN_AMD_NORM_FINAL, 4600, 10, 1, S_MAIN, API_LAUNCH, 0, 0,
                       0, 0, G(16, 1, 1), G(256, 1, 1) },
    [R_LMHEAD] = { KN_AMD_GEMM_LMHEAD, 228640, 5, 0, S_MAIN, API_LAUNCH_EX, 0, 0,
                   0, 0, G(608, 1, 1), G(256, 1, 1) },
    [R_CAST] = { KN_AMD_CAST, 8280, 10, 0, S_MAIN, API_LAUNCH, 0, 0,
                 0, 0, G(2374, 1, 1), G(256, 1, 1) },
    [R_ARGMAX] = { KN_ARGMAX, 47240, 10, 0, S_MAIN, API_LAUNCH, 0, 0,
                   0, 8208, G(16, 19, 1), G(32, 16, 1) },
    [R_ADD] = { KN_AMD_ADD, 3440, 20, 0, S_MAIN, API_LAUNCH, 0, 0,
                0, 0, G(1, 1, 1), G(256, 1, 1) },
    [R_INDEX] = { KN_INDEX, 4080, 10, 0, S_MAIN, API_LAUNCH, 0, 0,
                  0, 0, G(1, 1, 1), G(128, 1, 1) },
};

#undef G

static const struct api_def nv_apis[API_COUNT] = {
    [API_LAUNCH] = { "cudaLaunchKernel", "cuda_runtime", 211, 's' },
    [API_LAUNCH_EX] = { "cudaLaunchKernelExC", "cuda_runtime", 430, 's' },
    [API_DRIVER] = { "cuLaunchKernelEx", "cuda_driver", 652, 's' },
    [API_MEMCPY] = { "cudaMemcpyAsync", "cuda_runtime", 41, 's' },
    [API_MEMSET] = { "cudaMemsetAsync", "cuda_runtime", 51, 's' },
    [API_IS_CAPTURING] = { "cudaStreamIsCapturing", "cuda_runtime", 317, 'f' },
    [API_EVENT_RECORD] = { "cudaEventRecordWithFlags", "cuda_runtime", 370, 'f' },
    [API_STREAM_WAIT] = { "cudaStreamWaitEvent", "cuda_runtime", 147, 's' },
    [API_STREAM_SYNC] = { "cudaStreamSynchronize", "cuda_runtime", 131, 'f' },
};

static const struct api_def amd_apis[API_COUNT] = {
    [API_LAUNCH] = { "hipLaunchKernel", "cuda_runtime", 107, 's' },
    [API_LAUNCH_EX] = { "hipExtModuleLaunchKernel", "cuda_runtime", 171, 's' },
    [API_DRIVER] = { "hipModuleLaunchKernel", "cuda_runtime", 169, 's' },
    [API_MEMCPY] = { "hipMemcpyAsync", "cuda_runtime", 134, 's' },
    [API_MEMSET] = { "hipMemsetAsync", "cuda_runtime", 148, 's' },
    [API_IS_CAPTURING] = { "hipStreamIsCapturing", "cuda_runtime", 296, 'f' },
    [API_EVENT_RECORD] = { "hipEventRecord", "cuda_runtime", 58, 'f' },
    [API_STREAM_WAIT] = { "hipStreamWaitEvent", "cuda_runtime", 200, 's' },
    [API_STREAM_SYNC] = { "hipStreamSynchronize", "cuda_runtime", 199, 'f' },
};

static const struct mem_def mem_defs[M_COUNT] = {
    [M_HTOD] = { "Memcpy HtoD (Pinned -> Device)", "gpu_memcpy", "HtoD", 256, 1700 },
    [M_DTOD] = { "Memcpy DtoD (Device -> Device)", "gpu_memcpy", "DtoD", 64, 1540 },
    [M_DTOH] = { "Memcpy DtoH (Device -> Pinned)", "gpu_memcpy", "DtoH", 128, 2300 },
    [M_SET] = { "Memset (Device)", "gpu_memset", "Memset", 64, 700 },
};

/* Shape args of each CPU op, as Kineto writes them with record_shapes=1. */
#define SHAPES(ci, it, is, id) \
    "\"Concrete Inputs\": " ci ", \"Input type\": " it \
    ", \"Input Strides\": " is ", \"Input Dims\": " id

static const struct cpu_def cpu_defs[C_COUNT] = {
    [C_SLICE] = { "aten::slice",
        SHAPES("[\"\", \"0\", \"0\", \"16\", \"1\"]",
               "[\"long int\", \"Scalar\", \"Scalar\", \"Scalar\", \"Scalar\"]",
               "[[1], [], [], [], []]", "[[512], [], [], [], []]") },
    [C_AS_STRIDED] = { "aten::as_strided",
        SHAPES("[\"\", \"[16]\", \"[1]\", \"0\"]",
               "[\"long int\", \"ScalarList\", \"ScalarList\", \"Scalar\"]",
               "[[1], [], [], []]", "[[512], [], [], []]") },
    [C_VIEW] = { "aten::view",
        SHAPES("[\"\", \"[16, 2048]\"]", "[\"c10::BFloat16\", \"ScalarList\"]",
               "[[2048, 1], []]", "[[16, 2048], []]") },
    [C_COPY] = { "aten::copy_",
        SHAPES("[\"\", \"\", \"True\"]", "[\"long int\", \"long int\", \"Scalar\"]",
               "[[1], [1], []]", "[[16], [16], []]") },
    [C_ARANGE] = { "aten::arange",
        SHAPES("[\"16446\", \"16462\", \"1\", \"\"]",
               "[\"Scalar\", \"Scalar\", \"Scalar\", \"long int\"]",
               "[[], [], [], [1]]", "[[], [], [], [0]]") },
    [C_FOREACH] = { "aten::_foreach_copy_",
        SHAPES("[\"\", \"\", \"False\"]", "[\"TensorList\", \"TensorList\", \"Scalar\"]",
               "[[[1], [1], [1], [1]], [[1], [1], [1], [1]], []]",
               "[[[16], [16], [16], [16]], [[16], [16], [16], [16]], []]") },
    [C_FILL] = { "aten::fill_",
        SHAPES("[\"\", \"0\"]", "[\"int\", \"Scalar\"]", "[[1], []]", "[[16], []]") },
    [C_ALLOC] = { "sglang_profiler::common_alloc_paged_token_slots_decode_523",
        SHAPES("[]", "[]", "[]", "[]") },
    [C_TRITON] = { KN_TRITON,
        "\"stream\": 0, \"kernel_backend\": \"triton\", \"kernel_name\": \"" KN_TRITON
        "\", \"kernel_kwargs\": \"XBLOCK=16\", \"num_warps\": 4, \"num_stages\": 1" },
    [C_INDEX_SELECT] = { "aten::index_select",
        SHAPES("[\"\", \"0\", \"\"]", "[\"c10::BFloat16\", \"Scalar\", \"long int\"]",
               "[[2048, 1], [], [1]]", "[[151936, 2048], [], [16]]") },
    [C_ADD_RMSNORM] = { "sgl_kernel::fused_add_rmsnorm",
        SHAPES("[\"\", \"\", \"\", \"9.9999999999999995e-07\", \"True\"]",
               "[\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\", \"Scalar\"]",
               "[[2048, 1], [2048, 1], [1], [], []]",
               "[[16, 2048], [16, 2048], [2048], [], []]") },
    [C_MM_QKV] = { "aten::mm",
        SHAPES("[\"\", \"\"]", "[\"c10::BFloat16\", \"c10::BFloat16\"]",
               "[[2048, 1], [1, 2048]]", "[[16, 2048], [2048, 1280]]") },
    [C_QKNORM] = { "sgl_kernel::fused_qk_norm",
        SHAPES("[\"\", \"\", \"\", \"9.9999999999999995e-07\"]",
               "[\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\"]",
               "[[1280, 128, 1], [1], [1], []]", "[[16, 10, 128], [128], [128], []]") },
    [C_ROPE] = { "sgl_kernel::fused_rope_store",
        SHAPES("[\"\", \"\", \"\", \"\", \"True\"]",
               "[\"long int\", \"c10::BFloat16\", \"c10::BFloat16\", \"float\", \"Scalar\"]",
               "[[1], [1280, 1], [1280, 1], [128, 1], []]",
               "[[16], [16, 1280], [16, 1280], [40960, 128], []]") },
    [C_ATTN] = { "sglang::unified_attention_with_output",
        SHAPES("[\"\", \"\", \"\", \"\", \"0\"]",
               "[\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\"]",
               "[[1024, 128, 1], [128, 128, 1], [128, 128, 1], [1024, 1], []]",
               "[[16, 8, 128], [16, 1, 128], [16, 1, 128], [16, 1024], []]") },
    [C_MM_O] = { "aten::mm",
        SHAPES("[\"\", \"\"]", "[\"c10::BFloat16\", \"c10::BFloat16\"]",
               "[[1024, 1], [1, 1024]]", "[[16, 1024], [1024, 2048]]") },
    [C_ALLREDUCE] = { "c10d::allreduce_",
        SHAPES("[\"\", \"\", \"\", \"\", \"-1\"]",
               "[\"TensorList\", \"ScriptObject\", \"ScriptObject\", \"\", \"Scalar\"]",
               "[[[2048, 1]], [], [], [], []]", "[[[16, 2048]], [], [], [], []]") },
    [C_MM_ROUTER] = { "aten::mm",
        SHAPES("[\"\", \"\"]", "[\"c10::BFloat16\", \"c10::BFloat16\"]",
               "[[2048, 1], [1, 2048]]", "[[16, 2048], [2048, 128]]") },
    [C_TOPK] = { "sglang::moe_topk_softmax",
        SHAPES("[\"\", \"8\", \"True\"]", "[\"c10::BFloat16\", \"Scalar\", \"Scalar\"]",
               "[[128, 1], [], []]", "[[16, 128], [], []]") },
    [C_FUSED_MOE] = { "sglang::fused_moe",
        SHAPES("[\"\", \"\", \"\", \"\", \"\"]",
               "[\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"float\", \"int\"]",
               "[[2048, 1], [393216, 2048, 1], [393216, 384, 1], [8, 1], [8, 1]]",
               "[[16, 2048], [128, 192, 2048], [128, 2048, 192], [16, 8], [16, 8]]") },
    [C_RMSNORM] = { "sgl_kernel::rmsnorm",
        SHAPES("[\"\", \"\", \"\", \"9.9999999999999995e-07\", \"True\"]",
               "[\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\", \"Scalar\"]",
               "[[2048, 1], [2048, 1], [1], [], []]",
               "[[16, 2048], [16, 2048], [2048], [], []]") },
    [C_MM_LMHEAD] = { "aten::mm",
        SHAPES("[\"\", \"\"]", "[\"c10::BFloat16\", \"c10::BFloat16\"]",
               "[[2048, 1], [1, 2048]]", "[[16, 2048], [2048, 37984]]") },
    [C_TO_COPY] = { "aten::_to_copy",
        SHAPES("[\"\", \"6\", \"\", \"\", \"\", \"False\", \"\"]",
               "[\"c10::BFloat16\", \"Scalar\", \"\", \"\", \"\", \"Scalar\", \"\"]",
               "[[37984, 1], [], [], [], [], [], []]",
               "[[16, 37984], [], [], [], [], [], []]") },
    [C_ARGMAX] = { "aten::argmax",
        SHAPES("[\"\", \"-1\", \"False\"]", "[\"float\", \"Scalar\", \"Scalar\"]",
               "[[151936, 1], [], []]", "[[16, 151936], [], []]") },
    [C_ADD] = { "aten::add",
        SHAPES("[\"\", \"1\", \"1\"]", "[\"long int\", \"Scalar\", \"Scalar\"]",
               "[[1], [], []]", "[[16], [], []]") },
    [C_INDEX] = { "aten::index",
        SHAPES("[\"\", \"\"]", "[\"int\", \"TensorList\"]",
               "[[1], [[1]]]", "[[512], [[16]]]") },
    [C_LOCAL_SCALAR] = { "aten::_local_scalar_dense",
        SHAPES("[\"\"]", "[\"long int\"]", "[[1]]", "[[16]]") },
};

#undef SHAPES

enum part { P_PROLOGUE, P_ATTN, P_MOE, P_EPILOGUE };

#define NOK R_NONE
#define NORT API_COUNT

/* cpu, views, roles, mem, rt_before, rt_after: one decode step is the
 * prologue, the layer program repeated --layers times, then the epilogue.
 * resolve/clamp are launched with no cpu_op (no External id), as in real
 * traces. */
static const struct op_spec prologue_ops[] = {
    { C_COPY, 1, { NOK, NOK, NOK }, M_HTOD, NORT, NORT },
    { C_ARANGE, 0, { R_ARANGE, NOK, NOK }, M_NONE, NORT, NORT },
    { C_NONE, 0, { R_RESOLVE, NOK, NOK }, M_NONE, NORT, NORT },
    { C_NONE, 0, { R_CLAMP, NOK, NOK }, M_NONE, NORT, NORT },
    { C_FOREACH, 2, { R_FOREACH, NOK, NOK }, M_NONE, API_IS_CAPTURING, NORT },
    { C_FILL, 0, { NOK, NOK, NOK }, M_SET, NORT, NORT },
    { C_ALLOC, 0, { R_ALLOC, NOK, NOK }, M_NONE, NORT, NORT },
    { C_COPY, 1, { NOK, NOK, NOK }, M_DTOD, NORT, NORT },
    { C_INDEX_SELECT, 0, { R_EMBED, NOK, NOK }, M_NONE, NORT, NORT },
};

/* The first LAYER_ATTN_OPS entries are the attention half of the layer. */
#define LAYER_ATTN_OPS 7
static const struct op_spec layer_ops[] = {
    { C_ADD_RMSNORM, 0, { R_NORM_IN, NOK, NOK }, M_NONE, NORT, NORT },
    { C_MM_QKV, 1, { R_QKV, NOK, NOK }, M_NONE, NORT, NORT },
    { C_QKNORM, 0, { R_QKNORM, NOK, NOK }, M_NONE, NORT, NORT },
    { C_ROPE, 0, { R_ROPE, NOK, NOK }, M_NONE, NORT, NORT },
    { C_ATTN, 1, { R_ATTN, R_ATTN_REDUCE, NOK }, M_NONE, NORT, NORT },
    { C_MM_O, 1, { R_OPROJ, R_OPROJ_REDUCE, NOK }, M_NONE, NORT, NORT },
    { C_ALLREDUCE, 0, { R_ALLREDUCE, NOK, NOK }, M_NONE, NORT, NORT },
    { C_ADD_RMSNORM, 0, { R_NORM_POST, NOK, NOK }, M_NONE, NORT, NORT },
    { C_MM_ROUTER, 0, { R_ROUTER, NOK, NOK }, M_NONE, NORT, NORT },
    { C_TOPK, 0, { R_TOPK, R_MOE_SORT, NOK }, M_NONE, NORT, NORT },
    { C_FUSED_MOE, 2, { R_MOE_GEMM1, R_MOE_GEMM2, R_MOE_FINALIZE }, M_NONE, NORT, NORT },
    { C_ALLREDUCE, 0, { R_ALLREDUCE, NOK, NOK }, M_NONE, NORT, NORT },
};

/* The Triton kernel runs on a side stream while lm_head still runs on the
 * main stream: busy time < kernel time, and its ts is earlier than the
 * queued kernel written before it (an inversion, as in real files).
 * The last op copies the sampled tokens to the host and synchronizes, so
 * the next step's CPU work starts after this step's GPU work has ended. */
static const struct op_spec epilogue_ops[] = {
    { C_RMSNORM, 0, { R_NORM_FINAL, NOK, NOK }, M_NONE, NORT, NORT },
    { C_MM_LMHEAD, 1, { R_LMHEAD, NOK, NOK }, M_NONE, NORT, NORT },
    { C_TO_COPY, 0, { R_CAST, NOK, NOK }, M_NONE, NORT, NORT },
    { C_TRITON, 0, { R_TRITON, NOK, NOK }, M_NONE, API_EVENT_RECORD, API_STREAM_WAIT },
    { C_ARGMAX, 0, { R_ARGMAX, NOK, NOK }, M_NONE, NORT, NORT },
    { C_ADD, 0, { R_ADD, NOK, NOK }, M_NONE, NORT, NORT },
    { C_INDEX, 1, { R_INDEX, NOK, NOK }, M_NONE, NORT, NORT },
    { C_LOCAL_SCALAR, 0, { NOK, NOK, NOK }, M_DTOH, NORT, API_STREAM_SYNC },
};

#undef NOK
#undef NORT

/* ---- python_function names ---- */

#define SGL "/sgl-workspace/sglang/python/sglang/srt/"
/* Step-level stack, outermost first; each is the parent of the next. */
static const char *const py_step_names[] = {
    SGL "managers/scheduler.py(1093): event_loop_normal",
    SGL "managers/scheduler.py(2187): run_batch",
    SGL "managers/tp_worker.py(398): forward_batch_generation",
    SGL "model_executor/model_runner.py(2272): forward",
    "torch/utils/_contextlib.py(120): decorate_context",
    SGL "models/qwen3_moe.py(842): forward",
};
#define PY_STEP_DEPTH 6
/* Per layer, below the model forward: 3 nested frames, the decoder layer
 * module (its name carries the layer index), its forward, then the two
 * halves with one builtin call each. */
static const char *const py_layer_names[] = {
    "torch/nn/modules/module.py(1773): _wrapped_call_impl",
    "torch/nn/modules/module.py(1784): _call_impl",
    NULL, /* "nn.Module: Qwen3MoeDecoderLayer_<i>", built per layer */
    SGL "models/qwen3_moe.py(680): forward",
    SGL "models/qwen3_moe.py(545): forward",
    "<built-in function len>",
    SGL "models/qwen3_moe.py(262): forward",
    "<built-in method append of list object at 0x7f41c07d1040>",
};
#define PY_LAYER_EVENTS 8
static const char *const py_tail_names[] = {
    SGL "layers/logits_processor.py(310): forward",
    SGL "layers/sampler.py(95): forward",
    SGL "managers/schedule_batch.py(984): finished", /* once per request */
};
#undef SGL

#endif /* GEN_TRACE_TABLES_H */
