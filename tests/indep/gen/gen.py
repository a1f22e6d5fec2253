#!/usr/bin/env python3
"""Independent synthetic Kineto (PyTorch profiler) trace generator for LLM
inference, with exact truth.  Standard library only.

    python3 gen.py --seed N --names real|random --out DIR

writes DIR/<names>_<N>.json.gz and DIR/<names>_<N>.truth.json.  As a module:
build(seed, names) -> (doc_dict, truth_dict).  See README.md.

Everything here was written from the shapes of the real traces under
shared/traces (names, args, ordering, linkage), not from the analyzer.
"""
import argparse
import gzip
import json
import math
import os
import random
import sys
import zlib

GEN_VERSION = 'indep-gen 1'

# --------------------------------------------------------------------------
# Kernel names copied verbatim from the shared real traces (B200, B300, H100,
# GB10, RTX 4080, MI300X).  Keys are ours.
# --------------------------------------------------------------------------
KN = {'copy_bf16': 'void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambda(int)#1})',
 'copy_long': 'void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}, std::array<char*, 2ul>, 4, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}, std::array<char*, 2ul>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1>)',
 'copy_int': 'void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#3}::operator()() const::{lambda(int)#1}, std::array<char*, 2ul>, 4, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#3}::operator()() const::{lambda(int)#1}, std::array<char*, 2ul>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1>)',
 'copy_f32_unrolled': 'void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>, 4, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1>)',
 'fill_bf16': 'void at::native::vectorized_elementwise_kernel<8, at::native::FillFunctor<c10::BFloat16>, std::array<char*, 1ul> >(int, at::native::FillFunctor<c10::BFloat16>, std::array<char*, 1ul>)',
 'fill_int': 'void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<int>, std::array<char*, 1ul> >(int, at::native::FillFunctor<int>, std::array<char*, 1ul>)',
 'fill_long': 'void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<long>, std::array<char*, 1ul> >(int, at::native::FillFunctor<long>, std::array<char*, 1ul>)',
 'add_int_self': 'void at::native::unrolled_elementwise_kernel<at::native::CUDAFunctorOnSelf_add<int>, std::array<char*, 2ul>, 4, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithoutCast, at::native::memory::StoreWithoutCast>(int, at::native::CUDAFunctorOnSelf_add<int>, std::array<char*, 2ul>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithoutCast, at::native::memory::StoreWithoutCast)',
 'add_int_vec': 'void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<int>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<int>, std::array<char*, 3ul>)',
 'add_long_self': 'void at::native::vectorized_elementwise_kernel<2, at::native::CUDAFunctorOnSelf_add<long>, std::array<char*, 2ul> >(int, at::native::CUDAFunctorOnSelf_add<long>, std::array<char*, 2ul>)',
 'index_small': 'void at::native::(anonymous namespace)::indexSelectSmallIndex<c10::BFloat16, long, unsigned int, 2, 2, -2>(at::cuda::detail::TensorInfo<c10::BFloat16, unsigned int>, at::cuda::detail::TensorInfo<c10::BFloat16 const, unsigned int>, at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, unsigned int, long)',
 'index_large': 'void at::native::(anonymous namespace)::indexSelectLargeIndex<c10::BFloat16, long, unsigned int, 2, 2, -2, true>(at::cuda::detail::TensorInfo<c10::BFloat16, unsigned int>, at::cuda::detail::TensorInfo<c10::BFloat16 const, unsigned int>, at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, unsigned int, unsigned int, long)',
 'argmax': 'void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::ArgMaxOps<float>, unsigned int, long, 4, 4> >(at::native::ReduceOp<float, at::native::ArgMaxOps<float>, unsigned int, long, 4, 4>)',
 'gather': 'void at::native::vectorized_gather_kernel<16, long>(char*, char*, long*, int, long, long, long, long, bool)',
 'arange': 'void (anonymous namespace)::elementwise_kernel_with_index<int, at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}>(int, at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}, function_traits<at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}>::result_type*)',
 'index_put': 'void at::native::index_elementwise_kernel<128, 4, at::native::gpu_index_kernel<at::native::index_put_kernel_impl<at::native::OpaqueType<4> >(at::TensorIterator&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1}>(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>, at::native::index_put_kernel_impl<at::native::OpaqueType<4> >(at::TensorIterator&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1} const&, bool)::{lambda(int)#1}>(long, at::native::gpu_index_kernel<at::native::index_put_kernel_impl<at::native::OpaqueType<4> >(at::TensorIterator&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1}>(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>, at::native::index_put_kernel_impl<at::native::OpaqueType<4> >(at::TensorIterator&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1} const&, bool)::{lambda(int)#1})',
 'index_kernel4': 'void at::native::index_elementwise_kernel<128, 4, at::native::gpu_index_kernel<at::native::index_kernel_impl<at::native::OpaqueType<4> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1}>(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>, at::native::index_kernel_impl<at::native::OpaqueType<4> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1} const&, bool)::{lambda(int)#1}>(long, at::native::gpu_index_kernel<at::native::index_kernel_impl<at::native::OpaqueType<4> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1}>(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>, at::native::index_kernel_impl<at::native::OpaqueType<4> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1} const&, bool)::{lambda(int)#1})',
 'index_kernel2': 'void at::native::index_elementwise_kernel<128, 4, at::native::gpu_index_kernel<at::native::index_kernel_impl<at::native::OpaqueType<2> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1}>(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>, at::native::index_kernel_impl<at::native::OpaqueType<2> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1} const&, bool)::{lambda(int)#1}>(long, at::native::gpu_index_kernel<at::native::index_kernel_impl<at::native::OpaqueType<2> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1}>(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>, at::native::index_kernel_impl<at::native::OpaqueType<2> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1} const&, bool)::{lambda(int)#1})',
 'masked_fill_bf16': 'void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::(anonymous namespace)::masked_fill_kernel(at::TensorIterator&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16, bool)#1}>(at::TensorIteratorBase&, at::native::(anonymous namespace)::masked_fill_kernel(at::TensorIterator&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16, bool)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::(anonymous namespace)::masked_fill_kernel(at::TensorIterator&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16, bool)#1}>(at::TensorIteratorBase&, at::native::(anonymous namespace)::masked_fill_kernel(at::TensorIterator&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16, bool)#1} const&)::{lambda(int)#1})',
 'neg_long': 'void at::native::vectorized_elementwise_kernel<2, at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}, std::array<char*, 2ul> >(int, at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}, std::array<char*, 2ul>)',
 'foreach_copy': 'void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::UnaryOpFunctor<long, 2, 1, 1>, at::native::Copy<long, long> >(at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::UnaryOpFunctor<long, 2, 1, 1>, at::native::Copy<long, long>)',
 'resolve_future': 'void (anonymous namespace)::resolve_future_token_ids_kernel<long>(long*, long const*, unsigned long)',
 'clamp_position': 'void (anonymous namespace)::clamp_position_kernel<long>(long*, long const*, unsigned long)',
 'scan_init': 'void at_cuda_detail::cub::detail::scan::DeviceScanInitKernel<at_cuda_detail::cub::ScanTileState<int, true> >(at_cuda_detail::cub::ScanTileState<int, true>, int)',
 'scan': 'void at_cuda_detail::cub::detail::scan::DeviceScanKernel<at_cuda_detail::cub::detail::scan::policy_hub<int, int, int, unsigned int, std::plus<int> >::Policy1000, int const*, int*, at_cuda_detail::cub::ScanTileState<int, true>, std::plus<int>, at_cuda_detail::cub::NullType, unsigned int, int, false, at_cuda_detail::cub::NullType>(int const*, int*, at_cuda_detail::cub::ScanTileState<int, true>, int, std::plus<int>, at_cuda_detail::cub::NullType, unsigned int)',
 'div_floor': 'void at::native::vectorized_elementwise_kernel<4, at::native::BUnaryFunctor<int, int, int, at::native::binary_internal::div_floor_kernel_cuda(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#3}::operator()() const::{lambda(int, int)#1}>, std::array<char*, 2ul> >(int, at::native::BUnaryFunctor<int, int, int, at::native::binary_internal::div_floor_kernel_cuda(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#3}::operator()() const::{lambda(int, int)#1}>, std::array<char*, 2ul>)',
 'hf_mul_bf16': 'void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1})',
 'hf_mul_bf16_vec': 'void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 3ul> >(int, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 3ul>)',
 'hf_to_f32': 'void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>, 4, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1>)',
 'hf_pow': 'void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::pow_tensor_scalar_kernel_impl<float, float>(at::TensorIteratorBase&, float)::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::(anonymous namespace)::pow_tensor_scalar_kernel_impl<float, float>(at::TensorIteratorBase&, float)::{lambda(float)#1}, std::array<char*, 2ul>)',
 'hf_mean': 'void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4>)',
 'hf_add_scalar_f32': 'void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctorOnSelf_add<float>, std::array<char*, 2ul> >(int, at::native::CUDAFunctorOnSelf_add<float>, std::array<char*, 2ul>)',
 'hf_rsqrt': 'void at::native::vectorized_elementwise_kernel<4, at::native::rsqrt_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::rsqrt_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>)',
 'hf_mul_f32': 'void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1})',
 'hf_to_bf16': 'void at::native::vectorized_elementwise_kernel<4, at::native::bfloat16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::bfloat16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul>)',
 'hf_add_bf16_vec': 'void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)',
 'hf_add_bf16': 'void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<c10::BFloat16> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<c10::BFloat16> const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<c10::BFloat16> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<c10::BFloat16> const&)::{lambda(int)#1})',
 'hf_neg_bf16': 'void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#9}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#9}::operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#9}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#9}::operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambda(int)#1})',
 'hf_cat2': 'void at::native::(anonymous namespace)::CatArrayBatchedCopy<at::native::(anonymous namespace)::OpaqueType<2u>, unsigned int, 4, 64, 64>(at::native::(anonymous namespace)::OpaqueType<2u>*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<at::native::(anonymous namespace)::OpaqueType<2u>, unsigned int, 64, 64>, at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)',
 'hf_cat4': 'void at::native::(anonymous namespace)::CatArrayBatchedCopy<at::native::(anonymous namespace)::OpaqueType<4u>, unsigned int, 3, 64, 64>(at::native::(anonymous namespace)::OpaqueType<4u>*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<at::native::(anonymous namespace)::OpaqueType<4u>, unsigned int, 64, 64>, at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)',
 'hf_silu': 'void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::silu_kernel(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#6}::operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul> >(int, at::native::(anonymous namespace)::silu_kernel(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#6}::operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul>)',
 'hf_flash_fwd': 'void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<64, 128, 128, 4, false, false, cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<64, 128, 128, 4, cutlass::bfloat16_t> >, false, true, false, false, false, true, false>(pytorch_flash::Flash_fwd_params)',
 'hf_sm90_gemm': 'sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas',
 'hf_cos': 'void at::native::vectorized_elementwise_kernel<4, at::native::cos_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::cos_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>)',
 'hf_sin': 'void at::native::vectorized_elementwise_kernel<4, at::native::sin_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::sin_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>)',
 'hf_eq': 'void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<long, long, bool, at::native::(anonymous namespace)::CompareEqFunctor<long> >, std::array<char*, 2ul> >(int, at::native::AUnaryFunctor<long, long, bool, at::native::(anonymous namespace)::CompareEqFunctor<long> >, std::array<char*, 2ul>)',
 'hf_and': 'void at::native::reduce_kernel<512, 1, at::native::ReduceOp<bool, at::native::func_wrapper_t<bool, at::native::and_kernel_cuda(at::TensorIterator&)::{lambda()#1}::operator()() const::{lambda()#12}::operator()() const::{lambda(bool, bool)#1}>, unsigned int, bool, 4> >(at::native::ReduceOp<bool, at::native::func_wrapper_t<bool, at::native::and_kernel_cuda(at::TensorIterator&)::{lambda()#1}::operator()() const::{lambda()#12}::operator()() const::{lambda(bool, bool)#1}>, unsigned int, bool, 4>)',
 'hf_sgemm': 'void cutlass::Kernel2<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>(cutlass_80_simt_sgemm_128x32_8x5_nn_align1::Params)',
 'hf_mul_scalar_f32': 'void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 2ul> >(int, at::native::AUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 2ul>)',
 'softmax_fwd': 'void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(float*, float const*, int)',
 'radix_hist_f': 'void at_cuda_detail::cub::detail::radix_sort::DeviceRadixSortHistogramKernel<at_cuda_detail::cub::detail::radix::policy_hub<float, at::cuda::cub::detail::OpaqueType<8>, unsigned long long>::Policy1000, (at_cuda_detail::cub::SortOrder)0, float, unsigned long long, at_cuda_detail::cub::detail::identity_decomposer_t>(unsigned long long*, float const*, unsigned long long, int, int, at_cuda_detail::cub::detail::identity_decomposer_t)',
 'radix_excl_f': 'void at_cuda_detail::cub::detail::radix_sort::DeviceRadixSortExclusiveSumKernel<at_cuda_detail::cub::detail::radix::policy_hub<float, at::cuda::cub::detail::OpaqueType<8>, unsigned long long>::Policy1000, unsigned long long>(unsigned long long*)',
 'radix_onesweep_f': 'void at_cuda_detail::cub::detail::radix_sort::DeviceRadixSortOnesweepKernel<at_cuda_detail::cub::detail::radix::policy_hub<float, at::cuda::cub::detail::OpaqueType<8>, unsigned long long>::Policy1000, (at_cuda_detail::cub::SortOrder)0, float, at::cuda::cub::detail::OpaqueType<8>, unsigned long long, int, int, at_cuda_detail::cub::detail::identity_decomposer_t>(int*, int*, unsigned long long*, unsigned long long const*, float*, float const*, at::cuda::cub::detail::OpaqueType<8>*, at::cuda::cub::detail::OpaqueType<8> const*, int, int, int, at_cuda_detail::cub::detail::identity_decomposer_t)',
 'sort_post': 'void at::native::(anonymous namespace)::sort_postprocess_kernel<float>(float const*, float*, long*, int2 const*, int, int)',
 'fill_index_seg': 'at::native::(anonymous namespace)::fill_index_and_segment_kernel(int2*, int, at::cuda::detail::IntDivider<unsigned int>)',
 'scan_innermost': 'void at::native::tensor_kernel_scan_innermost_dim<float, std::plus<float> >(float*, float const*, unsigned int, unsigned int, unsigned int, float, std::plus<float>)',
 'exponential': 'void at::native::(anonymous namespace)::distribution_elementwise_grid_stride_kernel<float, 4, at::native::templates::cuda::uniform_and_transform<float, float, at::CUDAGeneratorImpl*, at::native::templates::cuda::exponential_kernel<at::CUDAGeneratorImpl*>(at::TensorIteratorBase&, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::CUDAGeneratorImpl*, at::native::templates::cuda::exponential_kernel<at::CUDAGeneratorImpl*>(at::TensorIteratorBase&, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1})::{lambda(curandStatePhilox4_32_10*)#2}, at::native::(anonymous namespace)::distribution_nullary_kernel<float, float, float4, at::CUDAGeneratorImpl*, at::native::templates::cuda::uniform_and_transform<float, float, at::CUDAGeneratorImpl*, at::native::templates::cuda::exponential_kernel<at::CUDAGeneratorImpl*>(at::TensorIteratorBase&, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::CUDAGeneratorImpl*, at::native::templates::cuda::exponential_kernel<at::CUDAGeneratorImpl*>(at::TensorIteratorBase&, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1})::{lambda(curandStatePhilox4_32_10*)#2}, at::native::templates::cuda::exponential_kernel<at::CUDAGeneratorImpl*>(at::TensorIteratorBase&, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::CUDAGeneratorImpl*, at::native::templates::cuda::uniform_and_transform<float, float, at::CUDAGeneratorImpl*, at::native::templates::cuda::exponential_kernel<at::CUDAGeneratorImpl*>(at::TensorIteratorBase&, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::CUDAGeneratorImpl*, at::native::templates::cuda::exponential_kernel<at::CUDAGeneratorImpl*>(at::TensorIteratorBase&, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1})::{lambda(curandStatePhilox4_32_10*)#2} const&, at::native::templates::cuda::exponential_kernel<at::CUDAGeneratorImpl*>(at::TensorIteratorBase&, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1})::{lambda(int, float)#1}>(long, at::PhiloxCudaState, at::native::templates::cuda::uniform_and_transform<float, float, at::CUDAGeneratorImpl*, at::native::templates::cuda::exponential_kernel<at::CUDAGeneratorImpl*>(at::TensorIteratorBase&, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::CUDAGeneratorImpl*, at::native::templates::cuda::exponential_kernel<at::CUDAGeneratorImpl*>(at::TensorIteratorBase&, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1})::{lambda(curandStatePhilox4_32_10*)#2}, at::native::(anonymous namespace)::distribution_nullary_kernel<float, float, float4, at::CUDAGeneratorImpl*, at::native::templates::cuda::uniform_and_transform<float, float, at::CUDAGeneratorImpl*, at::native::templates::cuda::exponential_kernel<at::CUDAGeneratorImpl*>(at::TensorIteratorBase&, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::CUDAGeneratorImpl*, at::native::templates::cuda::exponential_kernel<at::CUDAGeneratorImpl*>(at::TensorIteratorBase&, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1})::{lambda(curandStatePhilox4_32_10*)#2}, at::native::templates::cuda::exponential_kernel<at::CUDAGeneratorImpl*>(at::TensorIteratorBase&, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::CUDAGeneratorImpl*, at::native::templates::cuda::uniform_and_transform<float, float, at::CUDAGeneratorImpl*, at::native::templates::cuda::exponential_kernel<at::CUDAGeneratorImpl*>(at::TensorIteratorBase&, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::CUDAGeneratorImpl*, at::native::templates::cuda::exponential_kernel<at::CUDAGeneratorImpl*>(at::TensorIteratorBase&, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1})::{lambda(curandStatePhilox4_32_10*)#2} const&, at::native::templates::cuda::exponential_kernel<at::CUDAGeneratorImpl*>(at::TensorIteratorBase&, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1})::{lambda(int, float)#1})',
 'div_f32': 'void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::DivFunctor<float> >, std::array<char*, 3ul> >(int, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::DivFunctor<float> >, std::array<char*, 3ul>)',
 'compare_f32': 'void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::(anonymous namespace)::CompareFunctor<float> >(at::TensorIteratorBase&, at::native::(anonymous namespace)::CompareFunctor<float> const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::(anonymous namespace)::CompareFunctor<float> >(at::TensorIteratorBase&, at::native::(anonymous namespace)::CompareFunctor<float> const&)::{lambda(int)#1})',
 'masked_fill_f32': 'void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::masked_fill_kernel(at::TensorIterator&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float, bool)#1}, std::array<char*, 3ul> >(int, at::native::(anonymous namespace)::masked_fill_kernel(at::TensorIterator&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float, bool)#1}, std::array<char*, 3ul>)',
 'scatter_gather': 'void at::native::_scatter_gather_elementwise_kernel<128, 8, at::native::_cuda_scatter_gather_internal_kernel<true, at::native::OpaqueType<4>, long>::operator()<at::native::TensorAssign>(at::TensorIterator&, long, long, long, at::native::TensorAssign const&)::{lambda(int)#1}>(int, at::native::_cuda_scatter_gather_internal_kernel<true, at::native::OpaqueType<4>, long>::operator()<at::native::TensorAssign>(at::TensorIterator&, long, long, long, at::native::TensorAssign const&)::{lambda(int)#1})',
 'vllm_fused_add_rms': 'std::enable_if<(((8)>(0)))&&vllm::_typeConvert<c10::BFloat16>::exists, void>::type vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, long, c10::BFloat16*, c10::BFloat16 const*, float, int, int)',
 'vllm_rms': 'void vllm::rms_norm_kernel<c10::BFloat16, 8, 2>(c10::BFloat16*, c10::BFloat16 const*, long, long, long, long, long, c10::BFloat16 const*, float, int, int)',
 'vllm_rotary': 'void vllm::rotary_embedding_kernel<c10::BFloat16, true>(long const*, c10::BFloat16*, c10::BFloat16*, c10::BFloat16 const*, int, long, long, long, int, int, int)',
 'vllm_cache_fp8': 'void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, unsigned char, (vllm::Fp8KVCacheDataType)1>(__nv_bfloat16 const*, __nv_bfloat16 const*, unsigned char*, unsigned char*, long const*, long, long, long, long, long, int, int, int, float const*, float const*)',
 'vllm_cache_hip': 'void vllm::reshape_and_cache_flash_kernel<__hip_bfloat16, __hip_bfloat16, (vllm::Fp8KVCacheDataType)0>(__hip_bfloat16 const*, __hip_bfloat16 const*, __hip_bfloat16*, __hip_bfloat16*, long const*, long, long, long, long, long, int, int, int, float const*, float const*, int)',
 'vllm_fp8_quant': 'void vllm::scaled_fp8_quant_kernel_strided<c10::BFloat16, c10::Float8_e4m3fn>(c10::Float8_e4m3fn*, c10::BFloat16 const*, float const*, int, long, long)',
 'vllm_fp4_cvt': 'void vllm::cvt_fp16_to_fp4<__nv_bfloat16, false>(int, int, int, __nv_bfloat16 const*, float const*, unsigned int*, unsigned int*)',
 'vllm_silu_fp4': 'void vllm::silu_mul_cvt_fp16_to_fp4<__nv_bfloat16, false>(int, int, int, __nv_bfloat16 const*, float const*, unsigned int*, unsigned int*)',
 'copy_page_indices': '_copy_page_indices_kernel',
 'slot_mapping': '_compute_slot_mapping_kernel',
 'fi_batch_prefill_paged': 'void flashinfer::BatchPrefillWithPagedKVCacheKernel<flashinfer::KernelTraits<(flashinfer::MaskMode)0, 16u, 1u, 1u, 16u, 16u, 1u, 4u, (flashinfer::PosEncodingMode)0, __nv_bfloat16, __nv_fp8_e4m3, __nv_bfloat16, float, int, flashinfer::DefaultAttention<false, false, false, false> >, PagedParams>(PagedParams)',
 'fmha_sm100_ctx': 'fmhaSm100aKernel_QkvE4m3OBfloat16H64PagedKvCausalP16VarSeqQ128Kv128PersistentContext',
 'fmha_sm100_ctx_swa': 'fmhaSm100aKernel_QkvE4m3OBfloat16H64PagedKvSlidingOrChunkedCausalP16VarSeqQ128Kv128PersistentContext',
 'fmha_sm100_gen': 'fmhaSm100fKernel_QkvBfloat16OBfloat16H128PagedKvCausalP64MultiCtasKvCgaVarSeqQ8Kv128StaticSwapsAbForGen',
 'cutlass_nvfp4_a': '_ZN7cutlass13device_kernelINS_4gemm6kernel13GemmUniversalIN4cute5tupleIJiiiiEEENS1_10collective13CollectiveMmaINS1_42MainloopSm120TmaWarpSpecializedBlockScaledILi2ELi3ENS5_IJNS4_1CILi1EEESB_SB_EEENS1_51KernelTmaWarpSpecializedCooperativeBlockScaledSm120ILi3EEEEENS5_IJNSA_ILi128EEESG_NSA_ILi256EEEEEENS5_IJNS_12float_e2m1_tENS_13float_ue4m3_tEEEENS5_IJNS5_IJlSB_lEEENS4_6LayoutINS5_IJNS5_IJNS5_IJNSA_ILi32EEENSA_ILi4EEEEEEiEEENS5_IJNS5_IJNSA_ILi16EEESP_EEEiEEENS5_IJSB_iEEEEEENS5_IJSU_NS5_IJNS5_IJNSA_ILi0EEESB_EEENSA_ILi512EEEEEENS5_IJSX_iEEEEEEEEEEESL_S14_NS4_8TiledMMAINS4_8MMA_AtomIJNS4_5SM12011BLOCKSCALED19SM120_16x8x64_TN_VSISJ_SJ_fSK_Li16EEEEEENSN_INS5_IJSP_NSA_ILi2EEESB_EEENS5_IJSB_SP_SX_EEEEENS5_IJSG_NSN_INS5_IJNSA_ILi8EEES1C_S1C_EEENS5_IJSB_SS_S1G_EEEEENSA_ILi64EEEEEEEENS5_IJNS4_13SM90_TMA_LOADES1N_EEENS5_IJNS4_14ComposedLayoutINS4_7SwizzleILi3ELi4ELi3EEENS4_18smem_ptr_flag_bitsILi4EEENSN_INS5_IJS1G_SH_EEENS5_IJSH_SB_EEEEEEENSN_INS5_IJNS5_IJSQ_SB_EEENS5_IJST_SB_SP_EEEEEENS5_IJNS5_IJST_SZ_EEENS5_IJSY_SP_SZ_EEEEEEEEEEENS5_IJNS4_9Copy_AtomIJNS4_17SM75_U32x4_LDSM_NENS_15integer_subbyteILi4ELb0EEEEEENS26_IJNS4_13UniversalCopyISK_SK_EESK_EEEEEENS4_8identityES1O_S25_S2E_S2F_EENS_8epilogue10collective18CollectiveEpilogueINS2H_22Sm90TmaWarpSpecializedILi3ELi2ELi4ELb1ELb0EEEJSI_NS5_IJS1K_SO_EEENS_10bfloat16_tESM_S2N_SM_NS2H_6fusion15FusionCallbacksINS2H_23Sm120TmaWarpSpecializedILi3ELi2ELi4ELb1ELb0EEENS2O_17LinearCombinationIS2N_fS2N_fLNS_15FloatRoundStyleE2EEESI_S2M_JEEES1N_NS1P_INS1Q_ILi2ELi4ELi3EEENS1S_ILi16EEENSN_INS5_IJS1G_SO_EEENS5_IJSO_SB_EEEEEEENS4_17SM75_U32x2_LDSM_NENS4_14SM90_TMA_STOREES31_NS4_17SM90_U32x2_STSM_NENS26_IJS34_NS_6half_tEEEEvEEENS1_16StreamKSchedulerEvEEEEvNT_6ParamsE',
 'gdn_recurrent': 'fused_recurrent_gated_delta_rule_packed_decode_kernel',
 'conv1d_update': '_causal_conv1d_update_kernel',
 'multimem_ar': 'void (anonymous namespace)::multimem_all_reduce_kernel<c10::BFloat16, 16>(c10::BFloat16*, unsigned long, unsigned int**, unsigned long, unsigned long)',
 'nccl_allgather': 'ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)',
 'trtllm_quant_block': 'void tensorrt_llm::kernels::quantize_with_block_size<(tensorrt_llm::BlockScaleQuantizationType)2, __nv_bfloat16, 32, true>(int, int, int, int, __nv_bfloat16 const*, float const*, unsigned int*, unsigned int*, flashinfer::QuantizationSFLayout)',
 'moe_route_hist_scores': 'void moe::dev::routing::routingRenormalize::routingIndicesHistogramScoresKernel<moe::dev::routing::routingRenormalize::KernelParams<__nv_bfloat16, __nv_bfloat16, 128, false, true, true> >(moe::dev::routing::routingRenormalize::KernelParams<__nv_bfloat16, __nv_bfloat16, 128, false, true, true>)',
 'moe_route_hist': 'void moe::dev::routing::routingIndicesHistogramKernel<moe::dev::routing::routingRenormalize::KernelParams<__nv_bfloat16, __nv_bfloat16, 128, false, true, true> >(moe::dev::routing::routingRenormalize::KernelParams<__nv_bfloat16, __nv_bfloat16, 128, false, true, true>)',
 'moe_route_offsets': 'void moe::dev::routing::routingIndicesOffsetsKernel<moe::dev::routing::routingRenormalize::KernelParams<__nv_bfloat16, __nv_bfloat16, 128, false, true, true> >(moe::dev::routing::routingRenormalize::KernelParams<__nv_bfloat16, __nv_bfloat16, 128, false, true, true>)',
 'moe_route_custom': 'void moe::dev::routing::routingCustom::routingIndicesDynBlockKernel<moe::dev::routing::routingCustom::KernelParams<__nv_bfloat16, __nv_bfloat16, 128, 8, moe::dev::routing::TopKExpertSelect<moe::dev::routing::NoOpPreprocess, moe::dev::routing::SoftmaxPostprocess> > >(moe::dev::routing::routingCustom::KernelParams<__nv_bfloat16, __nv_bfloat16, 128, 8, moe::dev::routing::TopKExpertSelect<moe::dev::routing::NoOpPreprocess, moe::dev::routing::SoftmaxPostprocess> >)',
 'bmm_mxfp4_swiglu': 'bmm_MxE4m3_MxE2m1MxE4m3_Fp32_t128x16x256u2_s3_et128x16_m128x16x32_cga1x1x1_16dp256b_rM_TN_transOut_schedP2x1x2x3_biasM_bN_tma_tmaOpt_clmp_swiGlu_dynBatch_sm100f',
 'bmm_mxfp4_down': 'bmm_Bfloat16_MxE2m1MxE4m3_Fp32_t128x16x256u2_s3_et128x16_m128x16x32_cga1x1x1_16dp256b_rM_TN_transOut_schedP2x1x2x3_biasM_bN_tmaOpt_clmp_dynBatch_sm100f',
 'bmm_bf16_swiglu': 'bmm_Bfloat16_Bfloat16Bfloat16_Fp32_t128x8x128u2_s6_et128x8_m128x8x16_c1x1x1_16dp256b_rM_BN_transOut_schPd2x1x2x3_bN_ldgsts_ldgstsSf_rgTma_clmp_swiGlu_dynB_sm100f',
 'bmm_bf16_down': 'bmm_Bfloat16_Bfloat16Bfloat16_Fp32_t128x8x128u2_s5_et128x8_m128x8x16_c1x1x1_16dp256b_rM_BN_transOut_schPd2x1x2x3_bN_rgTma_clmp_dynB_sm100f',
 'moe_finalize_vec': 'void moe::dev::finalize::finalizeKernelVecLoad<moe::dev::finalize::KernelParams<cutlass::bfloat16_t, cutlass::bfloat16_t, 4, true> >(moe::dev::finalize::KernelParams<cutlass::bfloat16_t, cutlass::bfloat16_t, 4, true>)',
 'moe_finalize': 'void moe::dev::finalize::finalizeKernel<moe::dev::finalize::KernelParams<cutlass::bfloat16_t, cutlass::bfloat16_t, 4, true> >(moe::dev::finalize::KernelParams<cutlass::bfloat16_t, cutlass::bfloat16_t, 4, true>)',
 'splitk_reduce': 'void cublasLt::splitKreduce_kernel<32, 16, int, float, __nv_bfloat16, float, __nv_bfloat16, false, float, __nv_bfloat16, __nv_bfloat16, true, false, false, false>(cublasLt::cublasSplitKParams<float>, float const*, __nv_bfloat16 const*, float*, __nv_bfloat16*, float const*, float const*, __nv_bfloat16 const*, float const*, __nv_bfloat16*, void*, long, float*, int*, float*, float*, float const*, float const*, float const*, float const*, float const*)',
 'fi_cute_rms': 'kernel_cutlass_kernel_flashinfernormkernelsrmsnormRMSNormKernel_object_at__tensorptrbf16gmemalign128o204820481_tensorptrbf16gmemalign16o20481_tensorptrbf16gmemalign128o204820481___True_4__0',
 'fi_cute_fused_add_rms': 'kernel_cutlass_kernel_flashinfernormkernelsfused_add_rmsnormFusedAddRMSNormKernel_object_at__tensorptrbf16gmemalign128o204820481_tensorptrbf16gmemalign128o204820481_tensorptrbf16gmemalign_0',
 'sgl_qknorm': 'void (anonymous namespace)::fused_qknorm_warp<128l, true, __nv_bfloat16>((anonymous namespace)::QKNormParams)',
 'sgl_rope_store': 'void (anonymous namespace)::fused_rope_store_kernel<true, 128l, true, __nv_bfloat16, long, 16u>((anonymous namespace)::FusedRopeStoreParams)',
 'alloc_decode': 'alloc_decode_kernel',
 'flash_splitkv': 'void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 4, cutlass::bfloat16_t> >, false, false, false, false, true, false, true, false>(flash::Flash_fwd_params)',
 'flash_splitkv_combine': 'void flash::flash_fwd_splitkv_combine_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 4, cutlass::bfloat16_t> >, 4, 1, true>(flash::Flash_fwd_params)',
 'cutlass_wmma_128x1': 'void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_16x16_128x1_tn_align8>(cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_16x16_128x1_tn_align8::Params)',
 'cutlass_wmma_128x2': 'void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_16x16_128x2_tn_align8>(cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_16x16_128x2_tn_align8::Params)',
 'store_kvcache_kernel': 'store_kvcache_kernel',
 'aiter_add_rms_64': '_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi64ELi8ELb0ELb0ELb1ELi1EEEvPT0_PT_PfS4_S4_S4_diiiiiiib',
 'aiter_add_rms_256': '_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi256ELi8ELb1ELb0ELb1ELi1EEEvPT0_PT_PfS4_S4_S4_diiiiiiib',
 'aiter_rms_256': '_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi256ELi8ELb0ELb0ELb1ELi1EEEvPT0_PT_PfS4_S4_S4_diiiiiiib',
 'aiter_add_rms_256_16': '_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi256ELi16ELb1ELb0ELb1ELi1EEEvPT0_PT_PfS4_S4_S4_diiiiiiib',
 'hip_copy_bf16': 'void at::native::elementwise_kernel_manual_unroll<128, 8, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambda(int, bool)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambda(int, bool)#1})',
 'hip_copy_long': 'void at::native::elementwise_kernel_manual_unroll<128, 4, at::native::gpu_kernel_impl<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1} const&)::{lambda(int, bool)#1}>(int, at::native::gpu_kernel_impl<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1} const&)::{lambda(int, bool)#1})',
 'pa_ll4mi_8': 'void paged_attention_ll4mi_QKV_mfma16_kernel<0, __hip_bfloat16, __hip_bfloat16, (vllm::Fp8KVCacheDataType)0, 1, 128, 256, false, 8, 1, ck_tile::ComposedAttention<0u, false> >(__hip_bfloat16 const*, __hip_bfloat16 const*, __hip_bfloat16 const*, float, int const*, int const*, int const*, float const*, int, int, int, int, float*, float*, __hip_bfloat16*, float, float, float const*, float const*, float const*, ck_tile::ComposedAttention<0u, false> const*)',
 'pa_ll4mi_4': 'void paged_attention_ll4mi_QKV_mfma16_kernel<0, __hip_bfloat16, __hip_bfloat16, (vllm::Fp8KVCacheDataType)0, 1, 128, 256, false, 4, 1, ck_tile::ComposedAttention<0u, false> >(__hip_bfloat16 const*, __hip_bfloat16 const*, __hip_bfloat16 const*, float, int const*, int const*, int const*, float const*, int, int, int, int, float*, float*, __hip_bfloat16*, float, float, float const*, float const*, float const*, ck_tile::ComposedAttention<0u, false> const*)',
 'pa_ll4mi_reduce': 'void paged_attention_ll4mi_reduce_kernel<__hip_bfloat16, __hip_bfloat16, 128, 128, 256, 3, false>(__hip_bfloat16*, float const*, float const*, __hip_bfloat16 const*, int const*, int const*, int, int, float const*)',
 'aiter_qk_rope_cache': '_fused_qk_rope_reshape_and_cache_kernel',
 'aiter_topk': 'aiter::topksoftmax_4x128x8_bf16',
 'ck_moe_sort': 'void ck_tile::kentry<2, ck_tile::MoeSortingKernel<ck_tile::MoeSortingProblemEx<int, float, 2, true, false, false, true, 0> >, ck_tile::MoeSortingKernel<ck_tile::MoeSortingProblemEx<int, float, 2, true, false, false, true, 0> >::Kargs>(ck_tile::MoeSortingKernel<ck_tile::MoeSortingProblemEx<int, float, 2, true, false, false, true, 0> >::Kargs)',
 'ck_rmsnorm2d': '_ZN7ck_tile6kentryILi1ENS_12Rmsnorm2dFwdINS_27Rmsnorm2dFwdPipelineOnePassINS_27Rmsnorm2dFwdPipelineProblemIDF16bDF16bfDF16bDF16bDF16bffNS_19Generic2dBlockShapeINS_8sequenceIJLi1ELi3072EEEENS5_IJLi1ELi128EEEENS5_IJLi1ELi8EEEEEENS_18Rmsnorm2dFwdTraitsILb1ELb0ELb0ELb0ELNS_21Rmsnorm2dFusedAddEnumE0ELNS_23Rmsnorm2dFusedQuantEnumE0ELNS_22Rmsnorm2dSensitiveEnumE0EEEEENS_33Rmsnorm2dFwdPipelineDefaultPolicyEEENS_17Default2DEpilogueINS_24Default2DEpilogueProblemIfDF16bLb0ELb1ELb0EEEvEEEEJNSM_5KargsEEEEvDpT1_',
 'unified_attn_2d': 'kernel_unified_attention_2d',
 'ck_fmha_prefill': '_ZN7ck_tile6kentryILi2ENS_38FmhaBatchPrefillWithPagedKVCacheKernelINS_40BlockFmhaBatchPrefillPipelineQRKSVSAsyncINS_36BlockFmhaBatchPrefillPipelineProblemIDF16bDF16bDF16bffDF16bhfDF16bfDF16bNS_13TileFmhaShapeINS_8sequenceIJLi128ELi128ELi32ELi128ELi32ELi128EEEENS5_IJLi4ELi1ELi1EEEENS5_IJLi32ELi32ELi16EEEES7_S8_Lb1EEELb1ENS_17ComposedAttentionILj0ELb1EEENS_30SimplifiedGenericAttentionMaskILb1EEELb0ELi1ENS_26TileFmhaBatchPrefillTraitsILb1ELb1ELb1ELb1ELb0ELNS_22BlockAttentionBiasEnumE0ELb0ELb0ELb0ELNS_28BlockAttentionQuantScaleEnumE0ELin1ELb0ELb0ELi1ELNS_37BlockAttentionKVCacheMemoryLayoutEnumE1ELNS_36BlockAttentionKVCacheLookupTableEnumE1ELNS_33BlockAttentionKVCacheLoadModeEnumE0EEEEENS_53BlockFmhaBatchPrefillPipelineQRKSVSAsyncDefaultPolicyEEENS_17Default2DEpilogueINS_24Default2DEpilogueProblemIfDF16bLb1ELb1ELb1EEEvEEEEJNSS_21FmhaFwdGroupModeKargsEEEEvDpT1_',
 'hip_rotary': 'void rotary_embedding_kernel<c10::BFloat16, true>(long const*, c10::BFloat16*, c10::BFloat16*, c10::BFloat16 const*, int, long, long, long, int, int, int)',
 'sgl_store_kvcache': 'void (anonymous namespace)::store_kvcache<2048l, 4, false, long>((anonymous namespace)::StoreKVCacheParams)',
 'sgl_hip_act': '_ZN7sgl_hip10activation18act_and_mul_kernelI14__hip_bfloat16TnPFT_RKS3_EXadL_Z4siluIS2_ES3_S5_EEEEvPS3_PS4_i',
 'rocprim_scan': 'void rocprim::ROCPRIM_400200_NS::detail::trampoline_kernel<rocprim::ROCPRIM_400200_NS::detail::wrapped_scan_config<rocprim::ROCPRIM_400200_NS::default_config, long>, (rocprim::ROCPRIM_400200_NS::detail::target_arch)942, rocprim::ROCPRIM_400200_NS::detail::scan_impl<(rocprim::ROCPRIM_400200_NS::detail::lookback_scan_determinism)0, false, false, rocprim::ROCPRIM_400200_NS::default_config, long const*, long*, long, std::plus<long>, long>(void*, unsigned long&, long const*, long*, long, unsigned long, std::plus<long>, ihipStream_t*, bool)::{lambda(auto:1, auto:2)#1}::operator()<std::integral_constant<bool, false>, std::integral_constant<bool, true> >(std::integral_constant<bool, false>, std::integral_constant<bool, true>) const::{lambda(auto:1)#2}, rocprim::ROCPRIM_400200_NS::detail::default_config_selector>(rocprim::ROCPRIM_400200_NS::detail::scan_impl<(rocprim::ROCPRIM_400200_NS::detail::lookback_scan_determinism)0, false, false, rocprim::ROCPRIM_400200_NS::default_config, long const*, long*, long, std::plus<long>, long>(void*, unsigned long&, long const*, long*, long, unsigned long, std::plus<long>, ihipStream_t*, bool)::{lambda(auto:1, auto:2)#1}::operator()<std::integral_constant<bool, false>, std::integral_constant<bool, true> >(std::integral_constant<bool, false>, std::integral_constant<bool, true>) const::{lambda(auto:1)#2})',
 'fi_kv_indices_triton': 'create_flashinfer_kv_indices_triton',
 'compute_position': 'compute_position_kernel',
 'matmul_ogs_swiglu': '_matmul_ogs_NNT_bf16xbf16xmxfp4_128x128x128x1_swiglu',
 'topk_forward': '_topk_forward',
 'sum_bitmatrix': '_sum_bitmatrix_rows',
 'routing_memset': '_combined_routing_memset',
 'routing_compute': '_combined_routing_compute',
 'finalize_scatter': '_finalize_matmul_scatter_bf16',
 'hip_bf16_to_f32': 'void at::native::vectorized_elementwise_kernel<4, at::native::bfloat16tofloat32_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul> >(int, at::native::bfloat16tofloat32_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul>)',
 'nvjet_b200': ['nvjet_tst_144x128_64x6_2x1_v_bz_bias_TNN',
 'nvjet_tst_192x8_64x8_4x1_v_bz_TNT',
 'nvjet_tst_64x16_64x16_2x4_2cta_h_bz_bias_TNT',
 'nvjet_tst_64x64_64x16_2x1_2cta_v_bz_bias_TNT'], 'nvjet_b300': ['nvjet_sm103_tst_32x64_64x16_4x1_v_bz_splitK_TNN',
 'nvjet_sm103_tst_384x16_64x4_4x1_v_bz_TNT',
 'nvjet_sm103_tst_64x16_64x16_4x1_v_bz_TNT'], 'cijk': ['Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT128x16x128_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMBSK_GLS0_ISA942_IU1_K1_LDSTI0_LBSPPA1024_LBSPPB256_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT4_1_MO40_NTn1_NTA0_NTB0_NTC0_NTD4_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW4_SK0_SKFTR0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA4_VWB1_WSGRA0_WSGRB0_WS64_WG32_4_2',
 'Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT128x256x32_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA4_GRVWB4_GSUAMBSK_GLS0_ISA942_IU1_K1_LDSTI0_LBSPPA512_LBSPPB256_LBSPPM0_LPA4_LPB4_LPM0_LRVW4_LWPMn1_MIAV0_MIWT8_4_MO40_NTn1_NTA0_NTB0_NTC0_NTD4_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW8_SK0_SKFTR0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA8_VWB4_WSGRA0_WSGRB0_WS64_WG16_16_1',
 'Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT160x256x64_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMB_GLS0_ISA942_IU1_K1_LBSPPA256_LBSPPB512_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT10_4_MO40_NTn1_NTA0_NTB0_NTC0_NTD4_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW2_SK0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA2_VWB4_WSGRA0_WSGRB0_WS64_WG16_16_1',
 'Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT16x16x512_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMBSK_GLS0_ISA942_IU1_K1_LDSTI0_LBSPPA1024_LBSPPB1024_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT1_1_MO40_NTn1_NTA0_NTB0_NTC0_NTD4_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW1_SK0_SKFTR0_SKXCCM0_TLDS1_ULSGRO1_USL1_UIOFGRO0_USFGROn1_VSn1_VWA1_VWB1_WSGRA0_WSGRB0_WS64_WG16_4_4',
 'Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT16x32x512_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMBSK_GLS0_ISA942_IU1_K1_LDSTI0_LBSPPA1024_LBSPPB2048_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT1_2_MO40_NTn1_NTA0_NTB0_NTC0_NTD4_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW1_SK0_SKFTR0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA1_VWB2_WSGRA0_WSGRB0_WS64_WG16_4_4',
 'Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x16x64_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB4_GSUAMBSK_GLS0_ISA942_IU1_K1_LDSTI0_LBSPPA512_LBSPPB128_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT4_1_MO40_NTn1_NTA0_NTB0_NTC0_NTD4_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW4_SK0_SKFTR0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA4_VWB1_WSGRA0_WSGRB0_WS64_WG64_4_1',
 'Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x192x64_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMBSK_GLS0_ISA942_IU1_K1_LDSTI0_LBSPPA1024_LBSPPB256_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT8_6_MO40_NTn1_NTA0_NTB0_NTC0_NTD4_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW8_SK0_SKFTR0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA8_VWB2_WSGRA0_WSGRB0_WS64_WG32_8_1',
 'Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x192x64_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMB_GLS0_ISA942_IU1_K1_LBSPPA1024_LBSPPB256_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT8_6_MO40_NTn1_NTA0_NTB0_NTC0_NTD4_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW8_SK0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA8_VWB2_WSGRA0_WSGRB0_WS64_WG32_8_1',
 'Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x32x64_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMBSK_GLS0_ISA942_IU1_K1_LDSTI0_LBSPPA512_LBSPPB256_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT4_2_MO40_NTn1_NTA0_NTB0_NTC0_NTD4_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW4_SK0_SKFTR0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA4_VWB2_WSGRA0_WSGRB0_WS64_WG64_4_1',
 'Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x48x64_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB4_GSUAMBSK_GLS0_ISA942_IU1_K1_LDSTI0_LBSPPA512_LBSPPB128_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT4_3_MO40_NTn1_NTA0_NTB0_NTC0_NTD4_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW4_SK0_SKFTR0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA4_VWB1_WSGRA0_WSGRB0_WS64_WG64_4_1',
 'Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x48x64_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB4_GSUAMB_GLS0_ISA942_IU1_K1_LBSPPA512_LBSPPB128_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT4_3_MO40_NTn1_NTA4_NTB0_NTC0_NTD4_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW4_SK0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA4_VWB1_WSGRA0_WSGRB0_WS64_WG64_4_1',
 'Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT320x224x64_MI16x16x1_SN_LDSB0_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA1_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMBSK_GLS0_ISA942_IU1_K1_LDSTI0_LBSPPA0_LBSPPB256_LBSPPM0_LPA0_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT5_14_MO40_NTn1_NTA0_NTB0_NTC0_NTD4_NTM0_NEPBS16_NLCA2_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW1_SK0_SKFTR0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA1_VWB2_WSGRA0_WSGRB0_WS64_WG64_4_1',
 'Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT32x16x256_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMBSK_GLS0_ISA942_IU1_K1_LDSTI0_LBSPPA1024_LBSPPB512_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT2_1_MO40_NTn1_NTA0_NTB0_NTC0_NTD4_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW2_SK0_SKFTR0_SKXCCM0_TLDS1_ULSGRO1_USL1_UIOFGRO0_USFGROn1_VSn1_VWA2_VWB1_WSGRA0_WSGRB0_WS64_WG16_4_4',
 'Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT32x32x256_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMBSK_GLS0_ISA942_IU1_K1_LDSTI0_LBSPPA1024_LBSPPB1024_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT2_2_MO40_NTn1_NTA0_NTB0_NTC0_NTD4_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW2_SK0_SKFTR0_SKXCCM0_TLDS1_ULSGRO1_USL1_UIOFGRO0_USFGROn1_VSn1_VWA2_VWB2_WSGRA0_WSGRB0_WS64_WG16_4_4',
 'Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT32x64x128_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMB_GLS0_ISA942_IU1_K1_LBSPPA512_LBSPPB256_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT2_1_MO40_NTn1_NTA0_NTB4_NTC0_NTD4_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW2_SK0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA2_VWB1_WSGRA0_WSGRB0_WS64_WG16_16_1',
 'Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT64x16x256_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMBSK_GLS0_ISA942_IU1_K1_LDSTI0_LBSPPA2048_LBSPPB512_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT4_1_MO40_NTn1_NTA0_NTB0_NTC0_NTD4_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW4_SK0_SKFTR0_SKXCCM0_TLDS1_ULSGRO1_USL1_UIOFGRO0_USFGROn1_VSn1_VWA4_VWB1_WSGRA0_WSGRB0_WS64_WG16_4_4',
 'Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT64x32x256_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMBSK_GLS0_ISA942_IU1_K1_LDSTI0_LBSPPA2048_LBSPPB1024_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT4_2_MO40_NTn1_NTA0_NTB0_NTC0_NTD4_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW4_SK0_SKFTR0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA4_VWB2_WSGRA0_WSGRB0_WS64_WG16_4_4'], 'ck_moe_gemm': ['void ck::kernel_moe_gemm<ck::GridwiseMoeGemm<ck::tensor_layout::gemm::RowMajor, ck::tensor_layout::gemm::ColumnMajor, ck::Tuple<ck::tensor_layout::gemm::RowMajor, ck::tensor_layout::gemm::ColumnMajor, ck::tensor_layout::gemm::RowMajor>, ck::tensor_layout::gemm::RowMajor, unsigned short, unsigned short, float, float, ck::Tuple<float, float, float>, unsigned short, ck::tensor_operation::element_wise::PassThrough, ck::tensor_operation::element_wise::PassThrough, TypeCast, (ck::tensor_operation::device::GemmSpecialization)0, 256, 32, 64, 64, 8, 8, 16, 16, 2, 1, ck::Sequence<8, 32, 1>, ck::Sequence<1, 0, 2>, ck::Sequence<1, 0, 2>, 2, 8, 8, false, 0, ck::Sequence<8, 32, 1>, ck::Sequence<1, 0, 2>, ck::Sequence<1, 0, 2>, 2, 8, 8, false, 0, 2, 1, ck::Sequence<1, 32, 1, 8>, ck::Sequence<8, 1, 8>, (ck::BlockGemmPipelineScheduler)0, (ck::BlockGemmPipelineVersion)0, 1, false, true, false, true, int, unsigned short, unsigned short, unsigned short, unsigned short>, true, (ck::InMemoryDataOperationEnum)0, 2, (ck::TailNumber)1>(ck::GridwiseMoeGemm<ck::tensor_layout::gemm::RowMajor, ck::tensor_layout::gemm::ColumnMajor, ck::Tuple<ck::tensor_layout::gemm::RowMajor, ck::tensor_layout::gemm::ColumnMajor, ck::tensor_layout::gemm::RowMajor>, ck::tensor_layout::gemm::RowMajor, unsigned short, unsigned short, float, float, ck::Tuple<float, float, float>, unsigned short, ck::tensor_operation::element_wise::PassThrough, ck::tensor_operation::element_wise::PassThrough, TypeCast, (ck::tensor_operation::device::GemmSpecialization)0, 256, 32, 64, 64, 8, 8, 16, 16, 2, 1, ck::Sequence<8, 32, 1>, ck::Sequence<1, 0, 2>, ck::Sequence<1, 0, 2>, 2, 8, 8, false, 0, ck::Sequence<8, 32, 1>, ck::Sequence<1, 0, 2>, ck::Sequence<1, 0, 2>, 2, 8, 8, false, 0, 2, 1, ck::Sequence<1, 32, 1, 8>, ck::Sequence<8, 1, 8>, (ck::BlockGemmPipelineScheduler)0, (ck::BlockGemmPipelineVersion)0, 1, false, true, false, true, int, unsigned short, unsigned short, unsigned short, unsigned short>::Argument)',
 'void ck::kernel_moe_gemm<ck::GridwiseMoeGemm<ck::tensor_layout::gemm::RowMajor, ck::tensor_layout::gemm::ColumnMajor, ck::Tuple<ck::tensor_layout::gemm::RowMajor, ck::tensor_layout::gemm::ColumnMajor, ck::tensor_layout::gemm::RowMajor>, ck::tensor_layout::gemm::RowMajor, unsigned short, unsigned short, float, float, ck::Tuple<float, float, float>, unsigned short, ck::tensor_operation::element_wise::PassThrough, ck::tensor_operation::element_wise::PassThrough, TypeCastExpertWeight, (ck::tensor_operation::device::GemmSpecialization)0, 256, 32, 64, 64, 8, 8, 16, 16, 2, 1, ck::Sequence<8, 32, 1>, ck::Sequence<1, 0, 2>, ck::Sequence<1, 0, 2>, 2, 8, 8, false, 0, ck::Sequence<8, 32, 1>, ck::Sequence<1, 0, 2>, ck::Sequence<1, 0, 2>, 2, 8, 8, false, 0, 2, 1, ck::Sequence<1, 8, 1, 32>, ck::Sequence<2, 1, 2, 1>, (ck::BlockGemmPipelineScheduler)0, (ck::BlockGemmPipelineVersion)0, 0, false, false, true, true, int, unsigned short, unsigned short, unsigned short, unsigned short>, true, (ck::InMemoryDataOperationEnum)1, 2, (ck::TailNumber)1>(ck::GridwiseMoeGemm<ck::tensor_layout::gemm::RowMajor, ck::tensor_layout::gemm::ColumnMajor, ck::Tuple<ck::tensor_layout::gemm::RowMajor, ck::tensor_layout::gemm::ColumnMajor, ck::tensor_layout::gemm::RowMajor>, ck::tensor_layout::gemm::RowMajor, unsigned short, unsigned short, float, float, ck::Tuple<float, float, float>, unsigned short, ck::tensor_operation::element_wise::PassThrough, ck::tensor_operation::element_wise::PassThrough, TypeCastExpertWeight, (ck::tensor_operation::device::GemmSpecialization)0, 256, 32, 64, 64, 8, 8, 16, 16, 2, 1, ck::Sequence<8, 32, 1>, ck::Sequence<1, 0, 2>, ck::Sequence<1, 0, 2>, 2, 8, 8, false, 0, ck::Sequence<8, 32, 1>, ck::Sequence<1, 0, 2>, ck::Sequence<1, 0, 2>, 2, 8, 8, false, 0, 2, 1, ck::Sequence<1, 8, 1, 32>, ck::Sequence<2, 1, 2, 1>, (ck::BlockGemmPipelineScheduler)0, (ck::BlockGemmPipelineVersion)0, 0, false, false, true, true, int, unsigned short, unsigned short, unsigned short, unsigned short>::Argument)']}


# --------------------------------------------------------------------------
# Names not present in the shared traces, written in the same style as the
# kernels those libraries emit (NCCL/RCCL, custom all-reduce, FlashInfer,
# FlashAttention, FlashMLA, Triton MoE/Mamba/GDN, TRT-LLM, ATen).
# --------------------------------------------------------------------------
KX = {
    'nccl_ar': 'ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)',
    'nccl_ar_ll128': 'ncclDevKernel_AllReduce_Sum_bf16_RING_LL128(ncclDevKernelArgsStorage<4096ul>)',
    'nccl_ar_old': 'ncclKernel_AllReduce_RING_LL_Sum_bf16(ncclDevComm*, unsigned long, ncclWork*)',
    'rccl_generic': 'ncclDevKernel_Generic_4(ncclDevKernelArgsStorage<4096ul>)',
    'rccl_old': 'ncclKernel_AllReduce_RING_LL_Sum_bf16(ncclWorkElem)',
    'custom_ar_1s': 'void vllm::cross_device_reduce_1stage<__nv_bfloat16, 8>(vllm::RankData*, vllm::RankSignals, vllm::Signal*, __nv_bfloat16*, int, int)',
    'custom_ar_2s': 'void vllm::cross_device_reduce_2stage<__nv_bfloat16, 8>(vllm::RankData*, vllm::RankSignals, vllm::Signal*, __nv_bfloat16*, int, int)',
    'hip_custom_ar_1s': 'void vllm::cross_device_reduce_1stage<__hip_bfloat16, 8>(vllm::RankData*, vllm::RankSignals, vllm::Signal*, __hip_bfloat16*, int, int)',
    'hip_custom_ar_2s': 'void vllm::cross_device_reduce_2stage<__hip_bfloat16, 8>(vllm::RankData*, vllm::RankSignals, vllm::Signal*, __hip_bfloat16*, int, int)',
    'aiter_custom_ar': 'void aiter::cross_device_reduce_1stage_naive<__hip_bfloat16, 8>(aiter::RankData*, aiter::RankSignals, aiter::Signal*, __hip_bfloat16*, int, int)',
    'fi_ar_fusion': 'void flashinfer::trtllm_allreduce_fusion::allreduce_fusion_kernel_oneshot_lamport<(flashinfer::trtllm_allreduce_fusion::AllReduceFusionPattern)1, __nv_bfloat16, 8, true, true>(flashinfer::trtllm_allreduce_fusion::AllReduceFusionParams<__nv_bfloat16>)',
    'trt_ar_fusion': 'void tensorrt_llm::kernels::ar_fusion::allreduce_fusion_kernel_oneshot_lamport<(tensorrt_llm::kernels::ar_fusion::AllReduceFusionPattern)1, __nv_bfloat16, 8, true, true>(tensorrt_llm::kernels::ar_fusion::AllReduceFusionParams)',
    'aiter_ar_rms': 'void aiter::allreduce_fusion_kernel_1stage<__hip_bfloat16, 8, true>(aiter::RankData*, aiter::RankSignals, aiter::Signal*, __hip_bfloat16 const*, __hip_bfloat16*, __hip_bfloat16 const*, float, int, int)',
    'vllm_silu_mul': 'void vllm::act_and_mul_kernel<c10::BFloat16, &(c10::BFloat16 vllm::silu_kernel<c10::BFloat16>(c10::BFloat16 const&)), true>(c10::BFloat16*, c10::BFloat16 const*, int)',
    'vllm_cache_bf16': 'void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, __nv_bfloat16, (vllm::Fp8KVCacheDataType)0>(__nv_bfloat16 const*, __nv_bfloat16 const*, __nv_bfloat16*, __nv_bfloat16*, long const*, long, long, long, long, long, int, int, int, float const*, float const*, int)',
    'vllm_concat_mla': 'void vllm::concat_and_cache_mla_kernel<__nv_bfloat16, __nv_bfloat16, (vllm::Fp8KVCacheDataType)0>(__nv_bfloat16 const*, __nv_bfloat16 const*, __nv_bfloat16*, long const*, int, int, int, int, int, int, float const*)',
    'hip_concat_mla': 'void vllm::concat_and_cache_mla_kernel<__hip_bfloat16, __hip_bfloat16, (vllm::Fp8KVCacheDataType)0>(__hip_bfloat16 const*, __hip_bfloat16 const*, __hip_bfloat16*, long const*, int, int, int, int, int, int, float const*)',
    'fi_rms': 'void flashinfer::norm::RMSNormKernel<8u, __nv_bfloat16>(__nv_bfloat16*, __nv_bfloat16*, __nv_bfloat16*, unsigned int, unsigned int, unsigned int, float, float)',
    'fi_fused_add_rms': 'void flashinfer::norm::FusedAddRMSNormKernel<8u, __nv_bfloat16>(__nv_bfloat16*, __nv_bfloat16*, __nv_bfloat16*, unsigned int, unsigned int, unsigned int, float, float)',
    'fi_rope': 'void flashinfer::BatchQKApplyRotaryPosIdsCosSinCacheKernel<true, 128u, 8u, 16u, __nv_bfloat16, long>(__nv_bfloat16*, __nv_bfloat16*, __nv_bfloat16*, __nv_bfloat16*, float*, long*, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int)',
    'fi_silu_mul': 'void flashinfer::activation::act_and_mul_kernel<__nv_bfloat16, &(silu(float const&))>(__nv_bfloat16*, __nv_bfloat16 const*, int)',
    'sgl_store_kv': 'void (anonymous namespace)::store_kvcache<2048l, 8, false, long>((anonymous namespace)::StoreKVCacheParams)',
    'fi_decode': 'void flashinfer::BatchDecodeWithPagedKVCacheKernel<(flashinfer::PosEncodingMode)0, 2u, 4u, 8u, 16u, 1u, 8u, flashinfer::DefaultAttention<false, false, false, false>, flashinfer::BatchDecodeParams<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, int> >(flashinfer::BatchDecodeParams<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, int>)',
    'fi_ragged_prefill': 'void flashinfer::BatchPrefillWithRaggedKVCacheKernel<flashinfer::KernelTraits<(flashinfer::MaskMode)1, 128u, 2u, 4u, 8u, 8u, 4u, 1u, (flashinfer::PosEncodingMode)0, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, float, int, flashinfer::DefaultAttention<false, false, false, false> >, flashinfer::BatchPrefillRaggedParams<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, int> >(flashinfer::BatchPrefillRaggedParams<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, int>)',
    'fa2_fwd': 'void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t> >, false, true, false, false, true, true, false, false>(flash::Flash_fwd_params)',
    'fa3_fwd': 'void cutlass::device_kernel<flash::enable_sm90_or_later<flash::FlashAttnFwdSm90<flash::CollectiveMainloopFwdSm90<2, cute::tuple<cute::C<1>, cute::C<1>, cute::C<1> >, cute::tuple<cute::C<128>, cute::C<128>, cute::C<128> >, 128, cutlass::bfloat16_t, float, cutlass::arch::Sm90, true, false, false, true, true, false, false, true, true, false, false, false>, flash::CollectiveEpilogueFwd<cute::tuple<cute::C<128>, cute::C<128>, cute::C<128> >, cute::tuple<cute::C<1>, cute::C<1>, cute::C<1> >, cutlass::bfloat16_t, cutlass::arch::Sm90, 256, true, true, false, false>, flash::VarlenDynamicPersistentTileScheduler<128, 128, 256, 128, false, true, true, true, true, true> > > >(flash::FlashAttnFwdSm90<flash::CollectiveMainloopFwdSm90<2, cute::tuple<cute::C<1>, cute::C<1>, cute::C<1> >, cute::tuple<cute::C<128>, cute::C<128>, cute::C<128> >, 128, cutlass::bfloat16_t, float, cutlass::arch::Sm90, true, false, false, true, true, false, false, true, true, false, false, false>, flash::CollectiveEpilogueFwd<cute::tuple<cute::C<128>, cute::C<128>, cute::C<128> >, cute::tuple<cute::C<1>, cute::C<1>, cute::C<1> >, cutlass::bfloat16_t, cutlass::arch::Sm90, 256, true, true, false, false>, flash::VarlenDynamicPersistentTileScheduler<128, 128, 256, 128, false, true, true, true, true, true> >::Params)',
    'fa3_combine': 'void cutlass::device_kernel<flash::FlashAttnFwdCombine<cute::tuple<cute::C<8>, cute::C<128> >, 7, 256, 1, false, true, cutlass::bfloat16_t, float, cutlass::arch::Sm90> >(flash::FlashAttnFwdCombine<cute::tuple<cute::C<8>, cute::C<128> >, 7, 256, 1, false, true, cutlass::bfloat16_t, float, cutlass::arch::Sm90>::Params)',
    'fmha_sm100_ctx_bf16': 'fmhaSm100fKernel_QkvBfloat16OBfloat16H128PagedKvCausalP64VarSeqQ128Kv128PersistentContext',
    'fmha_sm100_gen_h64': 'fmhaSm100aKernel_QkvE4m3OBfloat16H64PagedKvCausalP16MultiCtasKvVarSeqQ8Kv128StaticSwapsAbForGen',
    'fmha_sm100_gen_h64_swa': 'fmhaSm100aKernel_QkvE4m3OBfloat16H64PagedKvSlidingOrChunkedCausalP16MultiCtasKvVarSeqQ8Kv128StaticSwapsAbForGen',
    'hf_flash_splitkv': 'void pytorch_flash::flash_fwd_splitkv_kernel<pytorch_flash::Flash_fwd_kernel_traits<128, 64, 128, 4, false, false, cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<128, 64, 128, 4, cutlass::bfloat16_t> >, false, false, false, false, true, false, true, false>(pytorch_flash::Flash_fwd_params)',
    'hf_flash_combine': 'void pytorch_flash::flash_fwd_splitkv_combine_kernel<pytorch_flash::Flash_fwd_kernel_traits<128, 64, 128, 4, false, false, cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<128, 64, 128, 4, cutlass::bfloat16_t> >, 4, 1, true>(pytorch_flash::Flash_fwd_params)',
    'hf_mem_eff': 'fmha_cutlassF_bf16_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<cutlass::bfloat16_t, cutlass::arch::Sm80, true, 64, 64, 64, true, true>::Params)',
    'aotriton_attn': 'attn_fwd',
    'flashmla': 'void flash_fwd_splitkv_mla_kernel<Flash_fwd_kernel_traits_mla<576, 64, 64, 8, cutlass::bfloat16_t, 512>, true>(Flash_fwd_mla_params)',
    'flashmla_combine': 'void flash_fwd_mla_combine_kernel<cutlass::bfloat16_t, float, 512, 32>(Flash_fwd_mla_params)',
    'mla_stage1': '_fwd_grouped_kernel_stage1',
    'mla_stage2': '_fwd_kernel_stage2',
    'aiter_mla': '_ZN5aiter37mla_dec_stage1_bf16_a16w16_subQ16_mqa16E',
    'aiter_mla_reduce': '_ZN5aiter16kn_mla_reduce_v1ILi512ELi16EEEvNS_15MlaReduceKargsE',
    'aiter_fmha_fwd': '_ZN5aiter36fmha_fwd_hd128_bf16_causal_rtz_group_psE',
    'vllm_topk_softmax': 'void vllm::moe::topkGatingSoftmax<8, 128, 4, 16, 32, int, (vllm::moe::ScoringFunc)0>(float const*, bool const*, float*, int, int*, int, int, int, bool, float const*)',
    'vllm_moe_align': 'void vllm::moe::moe_align_block_size_kernel<int>(int const*, int*, int*, int*, int, int, int, int, unsigned long, int*)',
    'vllm_moe_count_sort': 'void vllm::moe::count_and_sort_expert_tokens_kernel<int>(int const*, int*, int*, unsigned long)',
    'vllm_moe_sum': 'void vllm::moe::moe_sum_kernel<c10::BFloat16, 8>(c10::BFloat16*, c10::BFloat16 const*, int)',
    'vllm_grouped_topk': 'void vllm::moe::grouped_topk_fused_kernel<__nv_bfloat16>(__nv_bfloat16*, float*, int*, __nv_bfloat16 const*, long, long, long, long, long, bool, double)',
    'fused_moe': 'fused_moe_kernel',
    'sgl_topk_softmax': 'void topkGatingSoftmax<8, 128, 4, 16, 32, int>(float const*, bool const*, float*, int, int*, int*, int, int, int, bool)',
    'sgl_moe_align': 'void moe_align_block_size_kernel<int>(int const*, int*, int*, int*, int, int, int, unsigned long, int*)',
    'sgl_moe_sum': 'moe_sum_reduce_kernel',
    'trt_moe_routing': 'void tensorrt_llm::kernels::renormMoeRoutingKernel<float, float, int, 128, 8, true>(float*, float*, int*, int, int, int)',
    'trt_expand': 'void tensorrt_llm::kernels::cutlass_kernels::expandInputRowsKernel<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, (tensorrt_llm::kernels::cutlass_kernels::TmaWarpSpecializedGroupedGemmInput::FpXBlockScalingType)0, false>(__nv_bfloat16 const*, __nv_bfloat16*, float const*, float*, int const*, int*, long, long const*, long, int, float const*, int, float const*, float const*, int, int, __nv_bfloat16 const*, int const*, int)',
    'trt_moe_gemm': 'void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cutlass::gemm::GroupProblemShape<cute::tuple<long, long, long> >, cutlass::gemm::collective::CollectiveMma<cutlass::gemm::MainloopSm90ArrayTmaGmmaWarpSpecialized<4, cute::tuple<cute::C<2>, cute::C<1>, cute::C<1> >, cutlass::gemm::KernelPtrArrayTmaWarpSpecializedCooperative>, cute::tuple<cute::C<128>, cute::C<128>, cute::C<64> >, cutlass::bfloat16_t, cute::tuple<long, cute::C<1>, cute::C<0> >*, cutlass::bfloat16_t, cute::tuple<long, cute::C<1>, cute::C<0> >*, cute::TiledMMA<cute::MMA_Atom<cute::SM90_64x128x16_F32BF16BF16_SS<(cute::GMMA::Major)0, (cute::GMMA::Major)0, (cute::GMMA::ScaleIn)1, (cute::GMMA::ScaleIn)1> >, cute::Layout<cute::tuple<cute::C<2>, cute::C<1>, cute::C<1> >, cute::tuple<cute::C<1>, cute::C<0>, cute::C<0> > >, cute::tuple<cute::Underscore, cute::Underscore, cute::Underscore> > > > >(cutlass::gemm::kernel::GemmUniversal<cutlass::gemm::GroupProblemShape<cute::tuple<long, long, long> > >::Params)',
    'trt_doact': 'void tensorrt_llm::kernels::cutlass_kernels::doActivationKernel<__nv_bfloat16, __nv_bfloat16, tensorrt_llm::kernels::cutlass_kernels::GLUAdaptor<cutlass::epilogue::thread::SiLu>, (tensorrt_llm::kernels::cutlass_kernels::TmaWarpSpecializedGroupedGemmInput::FpXBlockScalingType)0>(__nv_bfloat16*, __nv_bfloat16 const*, float const*, __nv_bfloat16 const*, bool, long const*, int, long, float const*, bool, tensorrt_llm::kernels::cutlass_kernels::TmaWarpSpecializedGroupedGemmInput, long)',
    'trt_finalize': 'void tensorrt_llm::kernels::cutlass_kernels::finalizeMoeRoutingKernel<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, float, (tensorrt_llm::kernels::cutlass_kernels::ScaleMode)1, false>(__nv_bfloat16 const*, __nv_bfloat16*, __nv_bfloat16 const*, float const*, int const*, int const*, long, long, long, int const*, int)',
    'trt_qknorm_rope': 'void tensorrt_llm::kernels::fusedQKNormRopeKernel<__nv_bfloat16, 128, true>(__nv_bfloat16*, int, int, int, float, __nv_bfloat16 const*, __nv_bfloat16 const*, float, float, float, float, float, long const*, int)',
    'trt_rope_kv_ctx': 'void tensorrt_llm::kernels::applyBiasRopeUpdateKVCacheV2<__nv_bfloat16, __nv_bfloat16, 128, false, tensorrt_llm::kernels::KVBlockArray, false>(tensorrt_llm::kernels::QKVPreprocessingParams<__nv_bfloat16, tensorrt_llm::kernels::KVBlockArray>)',
    'trt_fmha_ctx': 'fmha_v2_flash_attention_bf16_64_128_S_qkv_128_causal_sm90_kernel_nl_tiled',
    'trt_xqa': 'kernel_mha',
    'trt_mmha': 'void tensorrt_llm::kernels::mmha::masked_multihead_attention_kernel<__nv_bfloat16, __nv_bfloat16, tensorrt_llm::kernels::KVBlockArray, tensorrt_llm::kernels::Multihead_attention_params<__nv_bfloat16, false>, 128, 256, 4, false, false, false, false, false, false, false, false, false>(tensorrt_llm::kernels::Multihead_attention_params<__nv_bfloat16, false>, tensorrt_llm::kernels::KVBlockArray)',
    'causal_conv1d_fwd': '_causal_conv1d_fwd_kernel',
    'gdn_gating': 'fused_gdn_gating_kernel',
    'gdn_cumsum': 'chunk_local_cumsum_scalar_kernel',
    'gdn_kkt': 'chunk_scaled_dot_kkt_fwd_kernel',
    'gdn_solve': 'merge_16x16_to_64x64_inverse_kernel',
    'gdn_wu': 'recompute_w_u_fwd_kernel',
    'gdn_h': 'chunk_gated_delta_rule_fwd_kernel_h_blockdim64',
    'gdn_o': 'chunk_fwd_kernel_o',
    'gdn_l2norm': 'l2norm_fwd_kernel',
    'gated_norm': '_layer_norm_fwd_1pass_kernel',
    'mamba_cumsum': '_chunk_cumsum_fwd_kernel',
    'mamba_state': '_chunk_state_fwd_kernel',
    'mamba_pass': '_state_passing_fwd_kernel',
    'mamba_bmm': '_bmm_chunk_fwd_kernel',
    'mamba_scan': '_chunk_scan_fwd_kernel',
    'mamba_update': '_selective_scan_update_kernel',
    'topk_gather': 'void at::native::sbtopk::gatherTopK<float, unsigned int, 2, false>(at::cuda::detail::TensorInfo<float const, unsigned int>, unsigned int, unsigned int, bool, unsigned int, unsigned int, at::cuda::detail::TensorInfo<float, unsigned int>, unsigned int, at::cuda::detail::TensorInfo<long, unsigned int>, unsigned int)',
    'bitonic_sort': 'void at::native::bitonicSortKVInPlace<2, -1, 16, 16, float, long, at::native::GTOp<float, true>, unsigned int>(at::cuda::detail::TensorInfo<float, unsigned int>, unsigned int, unsigned int, unsigned int, at::cuda::detail::TensorInfo<long, unsigned int>, unsigned int, at::native::GTOp<float, true>)',
    'index_add': 'void at::native::indexFuncLargeIndex<c10::BFloat16, long, unsigned int, 2, 2, -2, true, at::native::ReduceAdd>(at::cuda::detail::TensorInfo<c10::BFloat16, unsigned int>, at::cuda::detail::TensorInfo<c10::BFloat16 const, unsigned int>, at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, unsigned int, unsigned int, long, long, at::native::ReduceAdd const&, c10::BFloat16)',
    'nonzero_init': 'void at_cuda_detail::cub::DeviceCompactInitKernel<at_cuda_detail::cub::ScanTileState<int, true>, int*>(at_cuda_detail::cub::ScanTileState<int, true>, int, int*)',
    'nonzero_sweep': 'void at_cuda_detail::cub::DeviceSelectSweepKernel<at_cuda_detail::cub::DeviceSelectPolicy<bool, long, int>::Policy350, at_cuda_detail::cub::CountingInputIterator<long, long>, at_cuda_detail::cub::TransformInputIterator<bool, at::native::(anonymous namespace)::NonZeroOp<bool>, bool const*, long>, long*, int*, at_cuda_detail::cub::ScanTileState<int, true>, at_cuda_detail::cub::NullType, at_cuda_detail::cub::NullType, int, false>(at_cuda_detail::cub::CountingInputIterator<long, long>, at_cuda_detail::cub::TransformInputIterator<bool, at::native::(anonymous namespace)::NonZeroOp<bool>, bool const*, long>, long*, int*, at_cuda_detail::cub::ScanTileState<int, true>, at_cuda_detail::cub::NullType, at_cuda_detail::cub::NullType, int, int)',
    'sigmoid_bf16': 'void at::native::vectorized_elementwise_kernel<4, at::native::sigmoid_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#3}::operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul> >(int, at::native::sigmoid_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#3}::operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul>)',
    'sum_f32': 'void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4, 4>)',
    'multinomial': 'void at::native::(anonymous namespace)::sampleMultinomialOnce<float, float>(long*, long, int, float const*, float const*, int, int)',
    'fi_sampling': 'void flashinfer::sampling::TopKTopPSamplingFromProbKernel<1024u, (cub::CUB_200800_800_NS::BlockScanAlgorithm)0, (cub::CUB_200800_800_NS::BlockReduceAlgorithm)2, 4u, false, float, int>(float*, int*, bool*, int*, float*, int*, float*, unsigned int, unsigned long, unsigned long)',
    'rejection_greedy': 'rejection_greedy_sample_kernel',
    'eagle_prepare': 'eagle_prepare_inputs_padded_kernel',
    'sgl_verify': 'void VerifyTreeGreedy<int, long>(int*, int*, int*, long*, long*, long*, long*, long*, int*, unsigned int, unsigned int, unsigned int)',
    'alloc_extend': 'alloc_extend_kernel',
    'sm90_gemm_256': 'sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas',
    'sm90_gemm_64': 'sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x64x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas',
}

GEMM_POOLS = {
    # (big M, small M)
    'H100': (['sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas',
              'sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas',
              'nvjet_hsh_256x128_64x4_2x1_v_bz_coopA_TNT', 'nvjet_hsh_128x256_64x4_1x2_h_bz_coopB_TNN',
              'nvjet_hsh_192x128_64x5_2x1_v_bz_TNT'],
             ['nvjet_hsh_64x16_64x16_2x1_v_bz_TNT', 'nvjet_hsh_128x16_64x8_2x1_v_bz_TNN', 'nvjet_hsh_64x8_64x16_4x1_v_bz_TNT',
              'sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x64x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas']),
    'B200': (['nvjet_tst_144x128_64x6_2x1_v_bz_bias_TNN', 'nvjet_tst_64x64_64x16_2x1_2cta_v_bz_bias_TNT',
              'nvjet_tst_256x128_64x4_2x1_2cta_v_bz_TNT', 'nvjet_tst_128x256_64x4_1x2_2cta_h_bz_TNN'],
             ['nvjet_tst_192x8_64x8_4x1_v_bz_TNT', 'nvjet_tst_64x16_64x16_2x4_2cta_h_bz_bias_TNT',
              'nvjet_tst_64x8_64x16_4x1_v_bz_TNT', 'nvjet_tst_128x16_64x8_4x1_v_bz_TNN']),
    'B300': (['nvjet_sm103_tst_384x16_64x4_4x1_v_bz_TNT', 'nvjet_sm103_tst_256x128_64x4_2x1_2cta_v_bz_TNT',
              'nvjet_sm103_tst_128x256_64x4_1x2_2cta_h_bz_TNN'],
             ['nvjet_sm103_tst_64x16_64x16_4x1_v_bz_TNT', 'nvjet_sm103_tst_64x8_64x16_4x1_v_bz_TNN',
              'nvjet_sm103_tst_128x16_64x8_4x1_v_bz_TNT']),
    'A100': (['ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x3_tn', 'ampere_bf16_s16816gemm_bf16_256x128_ldg8_f2f_stages_64x3_tn',
              'sm80_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x32_stage4_warpsize2x2x1_tensor16x8x16_kernel'],
             ['ampere_bf16_s16816gemm_bf16_64x64_sliced1x2_ldg8_f2f_stages_64x5_tn',
              'void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_16x16_128x2_tn_align8>(cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_16x16_128x2_tn_align8::Params)',
              'void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x4_tn_align8>(cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x4_tn_align8::Params)']),
}
SPLITK_NAMES = {'H100': 'nvjet_hsh_64x8_64x16_4x1_v_bz_splitK_TNT', 'B200': 'nvjet_tst_64x8_64x16_4x1_v_bz_splitK_TNN',
                'B300': 'nvjet_sm103_tst_32x64_64x16_4x1_v_bz_splitK_TNN', 'A100': 'ampere_bf16_s16816gemm_bf16_64x64_sliced1x2_ldg8_f2f_stages_64x5_tn'}
CIJK_BIG = ('MT256x192x64', 'MT320x224x64', 'MT128x256x32', 'MT160x256x64')
CIJK_SMALL = ('MT16x16x512', 'MT32x16x256', 'MT64x16x256', 'MT16x32x512', 'MT64x32x256', 'MT32x32x256', 'MT32x64x128', 'MT128x16x128')

GPUS = {
    # name: (peak bf16 flop/s, hbm B/s, numSms, props)
    'H100': (8.0e14, 3.0e12, 132, dict(name='NVIDIA H100 80GB HBM3', totalGlobalMem=85030354944, computeMajor=9, computeMinor=0, regsPerBlock=65536, sharedMemPerBlockOptin=232448, sharedMemPerMultiprocessor=233472)),
    'B200': (1.8e15, 7.0e12, 148, dict(name='NVIDIA B200', totalGlobalMem=191514165248, computeMajor=10, computeMinor=0, regsPerBlock=65536, sharedMemPerBlockOptin=232448, sharedMemPerMultiprocessor=233472)),
    'B300': (2.0e15, 7.0e12, 148, dict(name='NVIDIA B300 SXM6 AC', totalGlobalMem=287416123392, computeMajor=10, computeMinor=3, regsPerBlock=65536, sharedMemPerBlockOptin=232448, sharedMemPerMultiprocessor=233472)),
    'GB10': (2.0e14, 2.5e11, 48, dict(name='NVIDIA GB10', totalGlobalMem=128526278656, computeMajor=12, computeMinor=1, regsPerBlock=65536, sharedMemPerBlockOptin=101376, sharedMemPerMultiprocessor=102400)),
    'A100': (2.8e14, 1.8e12, 108, dict(name='NVIDIA A100-SXM4-80GB', totalGlobalMem=85097267200, computeMajor=8, computeMinor=0, regsPerBlock=65536, sharedMemPerBlockOptin=166912, sharedMemPerMultiprocessor=167936)),
    'MI300X': (9.0e14, 4.5e12, 304, dict(name='AMD Instinct MI300X', totalGlobalMem=206141652992, computeMajor=9, computeMinor=4, regsPerBlock=131072)),
    'MI355X': (1.8e15, 7.0e12, 256, dict(name='AMD Instinct MI355X', totalGlobalMem=309220868096, computeMajor=9, computeMinor=5, regsPerBlock=131072)),
}

NV_CBID = {'cudaLaunchKernel': 211, 'cudaLaunchKernelExC': 430, 'cuLaunchKernelEx': 652, 'cuLaunchKernel': 307,
           'cudaGraphLaunch': 311, 'cudaMemcpyAsync': 41, 'cudaMemsetAsync': 51, 'cudaStreamSynchronize': 131,
           'cudaDeviceSynchronize': 165, 'cudaEventRecord': 135, 'cudaEventRecordWithFlags': 370,
           'cudaStreamWaitEvent': 147, 'cudaEventSynchronize': 137, 'cudaStreamIsCapturing': 317,
           'cudaEventQuery': 138, 'cudaDeviceGetAttribute': 200, 'cudaPeekAtLastError': 11,
           'cudaFuncSetAttribute': 273, 'cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags': 251}
AMD_CID = {'hipLaunchKernel': 107, 'hipModuleLaunchKernel': 169, 'hipExtModuleLaunchKernel': 65, 'hipGraphLaunch': 215,
           'hipMemcpyAsync': 134, 'hipMemsetAsync': 137, 'hipStreamSynchronize': 171, 'hipDeviceSynchronize': 48,
           'hipEventRecord': 58, 'hipStreamWaitEvent': 200, 'hipEventSynchronize': 60, 'hipStreamIsCapturing': 290,
           'hipPointerGetAttribute': 295, 'hipDeviceGetAttribute': 31, 'hipDriverGetVersion': 341,
           'hipEventQuery': 59, 'hipGetDevicePropertiesR0600': 370}
# launch api keys used by kernel specs -> (nvidia name, nvidia cat, amd name)
API = {'rt': ('cudaLaunchKernel', 'cuda_runtime', 'hipLaunchKernel'),
       'exc': ('cudaLaunchKernelExC', 'cuda_runtime', 'hipLaunchKernel'),
       'drv': ('cuLaunchKernelEx', 'cuda_driver', 'hipExtModuleLaunchKernel'),
       'tri': ('cuLaunchKernel', 'cuda_driver', 'hipModuleLaunchKernel'),
       'trix': ('cuLaunchKernelEx', 'cuda_driver', 'hipModuleLaunchKernel')}


def wchoice(rng, pairs):
    tot = sum(w for _, w in pairs)
    x = rng.random() * tot
    for v, w in pairs:
        x -= w
        if x <= 0:
            return v
    return pairs[-1][0]


def ceil_div(a, b):
    return -(-a // b)


# --------------------------------------------------------------------------
# configuration
# --------------------------------------------------------------------------
def draw_config(rng):
    c = {}
    c['platform'] = 'amd' if rng.random() < 0.3 else 'nvidia'
    if c['platform'] == 'nvidia':
        c['gpu'] = wchoice(rng, [('H100', 0.34), ('B200', 0.24), ('B300', 0.14), ('GB10', 0.1), ('A100', 0.18)])
        c['framework'] = wchoice(rng, [('vllm', 0.35), ('sglang', 0.26), ('hf', 0.22), ('trtllm', 0.17)])
    else:
        c['gpu'] = wchoice(rng, [('MI300X', 0.8), ('MI355X', 0.2)])
        c['framework'] = wchoice(rng, [('vllm', 0.42), ('sglang', 0.36), ('hf', 0.22)])
    fw = c['framework']
    if fw == 'vllm':
        c['launch'] = wchoice(rng, [('eager', 0.2), ('compiled', 0.15), ('piecewise', 0.43), ('graph', 0.22)])
        c['annotation'] = wchoice(rng, [('vllm', 0.72), ('none', 0.16), ('profilerstep', 0.12)])
        c['vllm_ann_style'] = wchoice(rng, [('old', 0.45), ('new', 0.55)])
    elif fw == 'sglang':
        c['launch'] = wchoice(rng, [('eager', 0.38), ('graph', 0.62)])
        c['annotation'] = wchoice(rng, [('sglang', 0.58), ('both', 0.12), ('none', 0.3)])
        c['vllm_ann_style'] = 'new'
    elif fw == 'hf':
        c['launch'] = 'eager'
        c['annotation'] = wchoice(rng, [('profilerstep', 0.78), ('none', 0.22)])
        c['vllm_ann_style'] = None
    else:
        c['launch'] = wchoice(rng, [('eager', 0.35), ('graph', 0.65)])
        c['annotation'] = wchoice(rng, [('profilerstep', 0.45), ('none', 0.55)])
        c['vllm_ann_style'] = None
    c['gpu_annotation'] = c['annotation'] != 'none' and rng.random() < 0.5
    c['ann_id_after'] = c['annotation'] != 'none' and rng.random() < 0.25
    c['record_shapes'] = rng.random() < 0.85
    # ---- model
    c['hybrid'] = wchoice(rng, [('none', 0.72), ('gdn', 0.14), ('mamba', 0.14)])
    if c['hybrid'] == 'none':
        c['attn'] = wchoice(rng, [('gqa', 0.44), ('mha', 0.12), ('mla', 0.2), ('swa', 0.24)])
    else:
        c['attn'] = 'gqa'
    c['ratio'] = rng.choice([1, 2, 3, 3, 5, 7]) if c['hybrid'] != 'none' else 0
    c['swa_local_per_global'] = rng.choice([1, 1, 3, 5]) if c['attn'] == 'swa' else 0
    c['mlp'] = wchoice(rng, [('dense', 0.46), ('moe', 0.3), ('alt', 0.1), ('firstk', 0.14)])
    c['first_k_dense'] = rng.choice([1, 1, 2, 3]) if c['mlp'] == 'firstk' else 0
    c['shared_expert'] = c['mlp'] != 'dense' and rng.random() < 0.4
    c['shared_expert_side_stream'] = c['shared_expert'] and fw in ('vllm', 'sglang', 'trtllm') and rng.random() < 0.45
    c['qknorm'] = c['attn'] != 'mla' and rng.random() < 0.4
    c['splitk'] = c['platform'] == 'nvidia' and c['gpu'] != 'GB10' and rng.random() < 0.3
    if fw == 'hf':
        c['tp'] = 1 if rng.random() < 0.88 else 2
    else:
        c['tp'] = wchoice(rng, [(1, 0.46), (2, 0.16), (4, 0.16), (8, 0.22)])
    if c['tp'] == 1:
        c['tp_style'] = None
    elif c['platform'] == 'amd':
        c['tp_style'] = wchoice(rng, [('rccl', 0.45), ('custom', 0.4), ('ar_norm', 0.15)])
    elif fw == 'hf':
        c['tp_style'] = 'nccl'
    else:
        c['tp_style'] = wchoice(rng, [('nccl', 0.34), ('custom', 0.3), ('ar_norm', 0.2), ('symm', 0.16)])
    c['hf_moe_loop'] = fw == 'hf' and c['mlp'] != 'dense'
    # ---- run
    c['decode_bs'] = rng.choice([1, 2, 4, 8, 16, 32, 64, 128, 256])
    c['sampling'] = wchoice(rng, [('greedy', 0.55), ('topp', 0.45)])
    c['jitter'] = round(rng.uniform(0.02, 0.3), 3)
    c['cpu_speed'] = round(rng.uniform(0.6, 1.8), 3)
    c['extra_p'] = round(rng.uniform(0.0, 0.15), 3)
    can_async = fw in ('vllm', 'sglang') and c['launch'] in ('graph', 'piecewise')
    c['async_steps'] = can_async and rng.random() < 0.45
    c['idle_in_pass'] = rng.random() < 0.32
    c['long_idle'] = rng.random() < 0.35
    c['spec_decode'] = fw in ('vllm', 'sglang', 'trtllm') and rng.random() < 0.13
    c['cut'] = wchoice(rng, [(None, 0.82), ('start', 0.06), ('end', 0.06), ('both', 0.06)])
    c['plan'] = wchoice(rng, [('prefill+decode', 0.42), ('decode-only', 0.22), ('prefill-only', 0.1),
                              ('mixed', 0.12), ('chunked', 0.14)])
    if c['plan'] == 'mixed' and fw not in ('vllm', 'trtllm'):
        c['plan'] = 'prefill+decode'
    if c['spec_decode'] and c['plan'] in ('prefill-only', 'mixed', 'chunked'):
        c['plan'] = wchoice(rng, [('prefill+decode', 0.5), ('decode-only', 0.5)])
    c['chunk_style'] = rng.choice(['steps', 'one-step', 'long']) if c['plan'] == 'chunked' else None
    if c['chunk_style'] == 'one-step' and c['annotation'] not in ('none', 'profilerstep'):
        c['chunk_style'] = 'steps'
    if c['chunk_style'] in ('steps', 'one-step') and fw == 'hf':
        c['chunk_style'] = 'long'
    # ---- file shape
    c['int_ts'] = rng.random() < 0.07
    c['meta_first'] = rng.random() < 0.15
    c['m_events_first'] = rng.random() < 0.15
    c['graph_ids'] = c['platform'] == 'nvidia' and rng.random() < 0.3
    c['python_stack'] = rng.random() < 0.7
    return c


def draw_model(c, rng):
    m = {}
    L = wchoice(rng, [(rng.randint(2, 8), 0.1), (rng.randint(9, 32), 0.45), (rng.randint(33, 64), 0.33),
                      (rng.randint(65, 96), 0.12)])
    m['layers'] = L
    m['hidden'] = rng.choice([1024, 1536, 2048, 2560, 2880, 3072, 3584, 4096, 5120, 6144, 7168, 8192])
    m['head_dim'] = 64 if m['hidden'] in (2880,) else rng.choice([64, 128, 128, 128])
    m['heads'] = max(8, m['hidden'] // m['head_dim'])
    if c['attn'] == 'mha':
        m['kv_heads'] = m['heads']
    else:
        m['kv_heads'] = min(m['heads'], rng.choice([1, 2, 4, 8, 8]))
    m['inter'] = int(m['hidden'] * rng.choice([2.5, 2.75, 3.5, 4.0]) // 256 * 256)
    m['vocab'] = rng.choice([32000, 128256, 151936, 152064, 201088, 262144])
    m['experts'] = rng.choice([8, 16, 32, 60, 64, 128, 256]) if c['mlp'] != 'dense' else 0
    if c['hf_moe_loop']:
        m['experts'] = rng.choice([8, 8, 16])
    m['topk'] = min(m['experts'], rng.choice([2, 4, 6, 8])) if m['experts'] else 0
    if c['hf_moe_loop']:
        m['topk'] = rng.choice([1, 2, 2, 4])
    m['moe_inter'] = rng.choice([256, 512, 768, 1024, 1408, 2048]) if m['experts'] else 0
    m['kv_lora'] = 512
    m['q_lora'] = rng.choice([0, 1536])
    m['swa_window'] = rng.choice([128, 512, 1024, 4096])
    # layer kinds
    kinds = []
    for i in range(L):
        if c['hybrid'] != 'none':
            full = (i % (c['ratio'] + 1)) == c['ratio']
            mixer = 'attn' if full else c['hybrid']
        elif c['attn'] == 'mla':
            mixer = 'mla'
        elif c['attn'] == 'swa':
            r = c['swa_local_per_global']
            mixer = 'global' if (i % (r + 1)) == r else 'sliding'
        else:
            mixer = 'attn'
        if c['mlp'] == 'dense':
            ffn = 'mlp'
        elif c['mlp'] == 'moe':
            ffn = 'moe'
        elif c['mlp'] == 'alt':
            ffn = 'moe' if i % 2 == 1 else 'mlp'
        else:
            ffn = 'mlp' if i < c['first_k_dense'] else 'moe'
        kinds.append(mixer + '+' + ffn)
    m['kinds'] = kinds
    return m


# --------------------------------------------------------------------------
# op trees and kernel specs
# --------------------------------------------------------------------------
def OP(name, dims=None, ch=None, k=False, x=None, types=None):
    """A cpu_op node.  k marks the node that launches the unit's kernels."""
    return {'n': name, 'd': dims, 'c': ch or [], 'k': k, 'x': x, 't': types}


def LEAF(name, dims=None):
    return OP(name, dims)


def MEMCPY(kind, nbytes, st='main', src='Pinned'):
    return {'mem': 'memcpy', 'kind': kind, 'bytes': int(nbytes), 'st': st, 'src': src}


def MEMSET(nbytes, st='main'):
    return {'mem': 'memset', 'bytes': int(nbytes), 'st': st}


def unit(op, ks, role='', fuse=None, eager=False, **kw):
    u = {'op': op, 'ks': ks, 'role': role, 'fuse': fuse, 'eager': eager}
    u.update(kw)
    return u


def h32(s):
    return zlib.crc32(s.encode()) & 0xffffffff


class Gen:
    """Holds one trace's configuration, model, names and cost model."""

    def __init__(self, seed, names):
        self.seed = seed
        self.names_mode = names
        self.rng = random.Random(seed * 1000003 + 12345)
        self.c = draw_config(self.rng)
        self.m = draw_model(self.c, self.rng)
        c, m, rng = self.c, self.m, self.rng
        self.plat = c['platform']
        self.amd = self.plat == 'amd'
        self.fw = c['framework']
        self.gpu = c['gpu']
        self.peak, self.bw, self.sms, self.props = GPUS[self.gpu]
        self.tp = c['tp']
        m['qkv_bias'] = rng.random() < 0.3
        # per-trace name choices (stable across layers)
        self._gname = {}
        self.inductor_fuse = c['launch'] in ('compiled', 'piecewise') or (c['launch'] == 'graph' and self.fw == 'vllm')
        self.inductor_fuse = self.inductor_fuse and rng.random() < 0.7
        self.glue_kernels = rng.choice([0, 0, 1, 2])
        self.kv_update_split = self.fw == 'vllm' and rng.random() < 0.5
        self.moe_style = self._pick_moe_style()
        self.attn_lib = self._pick_attn_lib()
        self.mem_before_gemm = self.gpu == 'H100' and self.fw == 'hf'
        self.sampler_outside = self.fw == 'vllm' and rng.random() < 0.5
        self.rocm_gemm_op = self.amd and self.fw == 'vllm' and rng.random() < 0.5
        self.sglang_both_ann = c['annotation'] == 'both'
        self.hf_sdpa = 'mem_eff' if (not self.amd and rng.random() < 0.25) else 'flash'
        self.stream_main = (3 if rng.random() < 0.5 else 0) if self.amd else rng.choice([7, 7, 13, 20])
        self.stream_side = self.stream_main + rng.choice([1, 2, 17, 22])
        self.cpu_pid = rng.randint(200, 90000)
        self.rank = rng.randint(0, self.tp - 1) if self.tp > 1 else 0
        self.gpu_pid = (rng.randint(0, 7) if self.amd else self.rank)
        self.hash_pool = [''.join(rng.choice('abcdefghijklmnopqrstuvwxyz234567') for _ in range(52)) for _ in range(6)]
        # draft model (speculative decoding)
        if c['spec_decode']:
            dl = rng.choice([1, 1, 2, 3, 4, 6])
            self.draft = {'layers': dl, 'k': rng.choice([1, 2, 3, 3, 4, 5]),
                          'own_gemm_names': rng.random() < 0.5, 'one_graph': rng.random() < 0.4}
        else:
            self.draft = None

    # ---------------- cost model (microseconds)
    def j(self, x):
        return x

    def t_gemm(self, M, N, K, wbytes=2.0):
        fl = 2.0 * M * N * K
        tc = fl / (self.peak * 0.62) * 1e6
        tm = (N * K * wbytes + (M * K + M * N) * 2.0) / (self.bw * 0.8) * 1e6
        return max(tc, tm) + 2.0

    def t_elem(self, nelem, passes=3):
        return nelem * 2.0 * passes / (self.bw * 0.7) * 1e6 + 1.6

    def t_attn_prefill(self, T, ctx, nh, hd, window=None):
        kv = min(ctx, window) if window else ctx
        fl = 4.0 * T * max(1.0, kv * 0.55) * nh * hd
        return fl / (self.peak * 0.45) * 1e6 + 4.0

    def t_attn_decode(self, bs, ctx, nkv, hd, window=None):
        kv = min(ctx, window) if window else ctx
        by = bs * kv * nkv * hd * 2.0 * 2.0
        return by / (self.bw * 0.7) * 1e6 + 4.0

    def t_ar(self, nbytes, style):
        if style in ('custom', 'symm', 'ar_norm'):
            return 4.0 + nbytes / 60e9 * 1e6
        return 8.0 + nbytes / 40e9 * 1e6 * (self.tp - 1) / self.tp * 2

    # ---------------- names
    def gemm_name(self, role, M):
        big = M > 64
        key = (role, big)
        if key in self._gname:
            return self._gname[key]
        rng = random.Random(h32('%d/%s/%s' % (self.seed, role, big)))
        if self.amd:
            pool = CIJK_BIG if big else CIJK_SMALL
            tile = pool[rng.randrange(len(pool))]
            cands = [n for n in KN['cijk'] if '_' + tile + '_' in n]
            name = cands[rng.randrange(len(cands))] if cands else KN['cijk'][0]
            api = 'drv'
        elif self.gpu == 'GB10':
            name = KN['cutlass_nvfp4_a'] if role not in ('lm_head', 'router') else KN['cutlass_wmma_128x1']
            api = 'exc' if name.startswith('_ZN') else 'rt'
        else:
            pool = GEMM_POOLS[self.gpu][0 if big else 1]
            name = pool[rng.randrange(len(pool))]
            if name.startswith('nvjet'):
                api = 'drv'
            elif name.startswith('sm90_xmma'):
                api = 'exc'
            else:
                api = 'rt'
        self._gname[key] = (name, api)
        return self._gname[key]

    def _pick_moe_style(self):
        rng = self.rng
        if self.c['mlp'] == 'dense':
            return None
        fw = self.fw
        if fw == 'hf':
            return 'hf_loop'
        if fw == 'trtllm':
            return 'trt'
        if self.amd:
            if fw == 'vllm':
                return 'ogs' if rng.random() < 0.5 else 'aiter'
            return 'aiter'
        if self.gpu in ('B200', 'B300') and rng.random() < 0.6:
            return 'trtgen'
        return 'triton'

    def _pick_attn_lib(self):
        rng = self.rng
        fw, g = self.fw, self.gpu
        if fw == 'hf':
            return 'sdpa'
        if fw == 'trtllm':
            return 'trt'
        if self.amd:
            if fw == 'vllm':
                return 'unified2d' if rng.random() < 0.6 else 'aiter'
            return 'aiter'
        if g == 'GB10':
            return 'flashinfer'
        if g in ('B200', 'B300'):
            return rng.choice(['trtgen', 'trtgen', 'flashinfer'])
        if g == 'H100':
            return rng.choice(['fa3', 'fa2', 'flashinfer'])
        return rng.choice(['fa2', 'flashinfer'])

    def kattrs(self, name):
        h = h32(name)
        regs = [16, 24, 32, 40, 56, 64, 80, 96, 128, 168, 255][h % 11]
        smem = [0, 0, 0, 4096, 16384, 32784, 49152, 98304, 174696, 205184][(h >> 4) % 10]
        return regs, smem


# --------------------------------------------------------------------------
# unit builders: one forward pass = prep / fwd / head / sample unit lists
# --------------------------------------------------------------------------
class Builder:
    def __init__(self, G, P, rng, draft=False):
        self.G, self.P, self.rng = G, P, rng
        self.c, self.m = G.c, G.m
        self.draft = draft
        self.fw = G.fw
        self.amd = G.amd
        self.T = P['T']
        self.tp = G.tp
        m = self.m
        self.H = m['hidden']
        self.hd = m['head_dim']
        self.nh = max(1, m['heads'] // self.tp)
        self.nkv = max(1, m['kv_heads'] // self.tp)
        self.I = max(256, m['inter'] // self.tp)
        self.V = m['vocab'] // self.tp
        self.decode = P['stage'] == 'decode'
        self.prefix = 'd_' if (draft and G.draft and G.draft['own_gemm_names']) else ''

    # -- helpers
    def K(self, name, grid, block, dur, api='rt', st='main', **kw):
        d = {'n': name, 'g': grid, 'b': block, 'd': dur, 'api': api, 'st': st}
        d.update(kw)
        return d

    def dims(self, *a):
        return list(a)

    def gemm_ks(self, M, N, Kd, role, st='main', splitk_ok=True):
        G = self.G
        name, api = G.gemm_name(self.prefix + role, M)
        dur = G.t_gemm(M, N, Kd)
        ks = []
        tiles = ceil_div(M, 128) * ceil_div(N, 128)
        grid = [min(max(1, tiles), G.sms * 2), 1, 1] if 'nvjet' in name or G.amd else [ceil_div(N, 128), ceil_div(M, 128), 1]
        if G.gpu == 'GB10' and name.startswith('_ZN'):
            ks.append(self.K(KN['vllm_fp4_cvt'], [72, 2, 1], [512, 1, 1], G.t_elem(M * Kd, 2), 'rt', st))
            if h32(role) % 2 == 0:
                ks.append(MEMSET(4 * 64, st))
            grid = [1, max(1, ceil_div(N, 256)), 1] if M <= 64 else [ceil_div(M, 128), ceil_div(N, 128), 1]
        if G.mem_before_gemm and name.startswith('sm90_xmma'):
            ks.append(MEMSET(4, st))
        split = (self.c['splitk'] and splitk_ok and M <= 64 and Kd >= 2048 and not G.amd and G.gpu != 'GB10')
        if split:
            sname = SPLITK_NAMES.get(G.gpu, name)
            ks.append(self.K(sname, [max(8, min(256, N // 32)), 1, 1], [256, 1, 1], dur * 0.85, 'drv' if sname.startswith('nvjet') else 'rt', st))
            ks.append(self.K(KN['splitk_reduce'], [max(4, N // 64), 1, 1], [32, 16, 1], 2.2 + G.t_elem(M * N, 2), 'rt', st))
        else:
            ks.append(self.K(name, grid, [256, 1, 1] if not G.amd else [256, 1, 1], dur, api, st))
        return ks

    def linear(self, M, N, Kd, role, bias=False, st='main', hf3=None):
        """cpu op tree + kernels for y = x W^T (+b) with M rows."""
        ks = self.gemm_ks(M, N, Kd, role, st)
        fw = self.fw
        if self.G.rocm_gemm_op:
            op = OP('vllm::rocm_unquantized_gemm', [[M, Kd], [N, Kd], [N] if bias else []], k=True)
        elif fw == 'hf' and hf3:
            B, S = hf3
            if bias:
                op = OP('aten::linear', [[B, S, Kd], [N, Kd], [N]], [
                    OP('aten::reshape', [[B, S, Kd], []], [LEAF('aten::view', [[B, S, Kd], []])]),
                    OP('aten::t', [[N, Kd]], [OP('aten::transpose', [[N, Kd], [], []], [LEAF('aten::as_strided', [[N, Kd], [], [], []])])]),
                    OP('aten::addmm', [[N], [M, Kd], [Kd, N], [], []], [LEAF('aten::empty', [[], [], [], [], [], []])], k=True),
                    LEAF('aten::view', [[M, N], []])])
            else:
                op = OP('aten::linear', [[B, S, Kd], [N, Kd], []], [
                    OP('aten::t', [[N, Kd]], [OP('aten::transpose', [[N, Kd], [], []], [LEAF('aten::as_strided', [[N, Kd], [], [], []])])]),
                    OP('aten::matmul', [[B, S, Kd], [Kd, N]], [
                        OP('aten::reshape', [[B, S, Kd], []], [LEAF('aten::view', [[B, S, Kd], []])]),
                        OP('aten::mm', [[M, Kd], [Kd, N]], k=True),
                        LEAF('aten::_unsafe_view', [[M, N], []])])])
        elif bias:
            op = OP('aten::linear', [[M, Kd], [N, Kd], [N]], [
                OP('aten::t', [[N, Kd]], [OP('aten::transpose', [[N, Kd], [], []], [LEAF('aten::as_strided', [[N, Kd], [], [], []])])]),
                OP('aten::addmm', [[N], [M, Kd], [Kd, N], [], []], k=True)])
        else:
            op = OP('aten::linear', [[M, Kd], [N, Kd], []], [
                OP('aten::t', [[N, Kd]], [OP('aten::transpose', [[N, Kd], [], []], [LEAF('aten::as_strided', [[N, Kd], [], [], []])])]),
                OP('aten::matmul', [[M, Kd], [Kd, N]], [OP('aten::mm', [[M, Kd], [Kd, N]], k=True)])])
        return unit(op, ks, role='gemm:' + role, gemm=(M, N, Kd, bias))

    # -- norms
    def norm(self, kind, li=None, n=None, width=None):
        """kind: rms (no residual) | add_rms (residual add + rms)."""
        G, T = self.G, self.T
        n = n or T
        width = width or self.H
        fw = self.fw
        dur = G.t_elem(n * width, 3 if kind == 'rms' else 5)
        if fw == 'hf':
            return self.hf_rms_chain(n, width)
        if fw == 'vllm':
            if self.amd:
                name = KN['ck_rmsnorm2d']
                api = 'rt'
            else:
                name = KN['vllm_rms'] if kind == 'rms' else KN['vllm_fused_add_rms']
                api = 'rt'
            opn = '_C::rms_norm' if kind == 'rms' else '_C::fused_add_rms_norm'
            op = OP(opn, [[n, width], [n, width], [width], []], k=True)
            grid, blk = [n, 1, 1], [256, 1, 1]
        elif fw == 'sglang':
            if self.amd:
                name = KN['aiter_rms_256'] if kind == 'rms' else KN['aiter_add_rms_256']
            elif G.gpu == 'B300':
                name = KN['fi_cute_rms'] if kind == 'rms' else KN['fi_cute_fused_add_rms']
            else:
                name = KX['fi_rms'] if kind == 'rms' else KX['fi_fused_add_rms']
            api = 'rt' if not name.startswith('kernel_cutlass') else 'exc'
            opn = 'sgl_kernel::rmsnorm' if kind == 'rms' else 'sgl_kernel::fused_add_rmsnorm'
            op = OP(opn, [[n, width], [width], []] if kind == 'rms' else [[n, width], [n, width], [width], []], k=True)
            grid, blk = [max(1, ceil_div(n, 4)) if name.startswith('kernel_cutlass') else n, 1, 1], [128 if name.startswith('kernel_cutlass') else 256, 1, 1]
        else:
            name = KX['fi_rms'] if kind == 'rms' else KX['fi_fused_add_rms']
            api = 'rt'
            opn = 'trtllm::flashinfer_rmsnorm' if kind == 'rms' else 'trtllm::flashinfer_fused_add_rmsnorm'
            op = OP(opn, [[n, width], [width], []], k=True)
            grid, blk = [n, 1, 1], [256, 1, 1]
        return [unit(op, [self.K(name, grid, blk, dur, api)], role=kind, fuse=kind)]

    def hf_rms_chain(self, n, width, prefix_dims=None):
        G = self.G
        B, S = self.P.get('hf_bs', (1, n))
        d3 = [B, S, width] if width == self.H else [B, S, max(1, n // max(1, B * S)), width]
        e = n * width
        g = max(1, ceil_div(e, 512))
        u = []
        u.append(unit(OP('aten::to', [d3, [], [], [], []], [OP('aten::_to_copy', [d3, [], [], [], [], [], []], [LEAF('aten::empty_strided', [[], [], [], [], [], []]), OP('aten::copy_', [d3, d3, []], k=True)])]),
                      [self.K(KN['hf_to_f32'], [g, 1, 1], [128, 1, 1], G.t_elem(e, 3))], role='norm'))
        u.append(unit(OP('aten::pow', [d3, []], [LEAF('aten::result_type', [d3, []]), LEAF('aten::to', [d3, [], [], [], []])], k=False),
                      [self.K(KN['hf_pow'], [g, 1, 1], [128, 1, 1], G.t_elem(e, 4))], role='norm'))
        u.append(unit(OP('aten::mean', [d3, [], [], []], k=True),
                      [self.K(KN['hf_mean'], [max(1, n // 16), 1, 1], [32, 16, 1], G.t_elem(e, 2))], role='norm'))
        u.append(unit(OP('aten::add', [d3[:-1] + [1], [], []], k=True),
                      [self.K(KN['hf_add_scalar_f32'], [max(1, ceil_div(n, 512)), 1, 1], [128, 1, 1], 1.6)], role='norm'))
        u.append(unit(OP('aten::rsqrt', [d3[:-1] + [1]], k=True),
                      [self.K(KN['hf_rsqrt'], [max(1, ceil_div(n, 512)), 1, 1], [128, 1, 1], 1.6)], role='norm'))
        u.append(unit(OP('aten::mul', [d3, d3[:-1] + [1]], k=True),
                      [self.K(KN['hf_mul_f32'], [2 * g, 1, 1], [128, 1, 1], G.t_elem(e, 6))], role='norm'))
        u.append(unit(OP('aten::to', [d3, [], [], [], []], [OP('aten::_to_copy', [d3, [], [], [], [], [], []], [LEAF('aten::empty_strided', [[], [], [], [], [], []]), OP('aten::copy_', [d3, d3, []], k=True)])]),
                      [self.K(KN['hf_to_bf16'], [g, 1, 1], [128, 1, 1], G.t_elem(e, 3))], role='norm'))
        u.append(unit(OP('aten::mul', [[width], d3], k=True),
                      [self.K(KN['hf_mul_bf16'], [g, 1, 1], [128, 1, 1], G.t_elem(e, 3))], role='norm'))
        return u

    def hf_add(self, n):
        B, S = self.P.get('hf_bs', (1, n))
        d3 = [B, S, self.H]
        return unit(OP('aten::add', [d3, d3, []], k=True),
                    [self.K(KN['hf_add_bf16_vec'], [max(1, ceil_div(n * self.H, 512)), 1, 1], [128, 1, 1], self.G.t_elem(n * self.H, 3))], role='residual', fuse='add')

    # -- all-reduce
    def allreduce(self, fused_norm=False):
        G, T = self.G, self.T
        style = self.c['tp_style']
        if self.tp == 1 or style is None:
            return []
        nbytes = T * self.H * 2
        dur = G.t_ar(nbytes, style)
        fw = self.fw
        top = 'vllm::all_reduce' if fw in ('vllm', 'sglang') else ('trtllm::allreduce' if fw == 'trtllm' else 'c10d::allreduce_')
        if fw == 'sglang':
            top = 'sglang::inplace_all_reduce' if style != 'nccl' else 'sglang::outplace_all_reduce'
        dims = [[T, self.H], []]
        if style == 'nccl' or style == 'rccl':
            if self.amd:
                name = KX['rccl_generic'] if h32(str(G.seed)) % 2 else KX['rccl_old']
            else:
                name = KX['nccl_ar'] if h32(str(G.seed)) % 3 else KX['nccl_ar_ll128']
            coll = {'Collective name': 'allreduce', 'In msg nelems': T * self.H, 'Out msg nelems': T * self.H,
                    'Group size': self.tp, 'dtype': 'BFloat16', 'In split size': '[]', 'Out split size': '[]',
                    'Process Group Name': '1', 'Process Group Description': 'undefined',
                    'Process Group Ranks': str(list(range(self.tp)))}
            if fw == 'hf':
                op = OP('c10d::allreduce_', [[T, self.H], [], [], [], []], [OP('record_param_comms', None, k=True, x=dict((k2, v) for k2, v in coll.items() if k2 in ('Collective name', 'dtype', 'Process Group Name')))])
            else:
                op = OP(top, dims, k=True)
            ks = [self.K(name, [max(2, min(32, self.tp * 4)), 1, 1], [512 if not self.amd else 256, 1, 1], dur, 'drv', coll=coll)]
            return [unit(op, ks, role='allreduce')]
        if style == 'custom':
            if self.amd:
                name = KX['hip_custom_ar_1s'] if (T * self.H * 2 < 4e6 or fw != 'vllm') else KX['hip_custom_ar_2s']
                if fw == 'sglang':
                    name = KX['aiter_custom_ar']
            else:
                name = KX['custom_ar_1s'] if T * self.H * 2 < 4e6 else KX['custom_ar_2s']
            op = OP(top, dims, [OP('_C_custom_ar::all_reduce', [[T, self.H], [T, self.H], [], []], k=True)] if fw == 'vllm' else [], k=fw != 'vllm')
            return [unit(op, [self.K(name, [min(36, max(1, T * self.H // 2048)), 1, 1], [512, 1, 1], dur, 'rt')], role='allreduce')]
        if style == 'symm':
            op = OP(top, dims, [
                LEAF('aten::empty_like', [[T, self.H], [], [], [], [], []]),
                OP('aten::copy_', [[T * self.H], [T * self.H], []], k=True)])
            op2 = OP('symm_mem::multimem_all_reduce_', [[T * self.H], [], []], k=True)
            op3 = OP('aten::copy_', [[T, self.H], [T, self.H], []], k=True)
            return [unit(op, [MEMCPY('DtoD', nbytes)], role='allreduce'),
                    unit(op2, [self.K(KN['multimem_ar'], [8, 1, 1], [1024, 1, 1], dur, 'rt')], role='allreduce'),
                    unit(op3, [MEMCPY('DtoD', nbytes)], role='allreduce')]
        # ar_norm: all-reduce fused with residual add + rmsnorm (replaces the next add_rms)
        if self.amd:
            name = KX['aiter_ar_rms']
        else:
            name = KX['trt_ar_fusion'] if fw == 'trtllm' else KX['fi_ar_fusion']
        opn = 'trtllm::allreduce' if fw == 'trtllm' else ('vllm::flashinfer_trtllm_fused_allreduce_norm' if fw == 'vllm' else 'sglang::flashinfer_allreduce_residual_rmsnorm')
        return [unit(OP(opn, [[T, self.H], [T, self.H], [self.H], []], k=True),
                     [self.K(name, [min(132, max(1, T)), 1, 1], [1024, 1, 1], dur + 2.0, 'exc')], role='allreduce_norm', replaces_norm=True)]

    # -- attention-family mixers
    def attn_kernel(self, mixer):
        """kernels for the attention core (after kv write)."""
        G, P = self.G, self.P
        T, nh, nkv, hd = self.T, self.nh, self.nkv, self.hd
        stage = P['stage']
        ctx = P['ctx']
        window = self.m['swa_window'] if mixer == 'sliding' else None
        bs = P['nreq']
        lib = G.attn_lib
        if stage == 'decode':
            dur = G.t_attn_decode(T, ctx, nkv, hd, window) * (1.0 + 0.4 * (P.get('spec_k') or 0))
        else:
            dur = G.t_attn_prefill(T, ctx, nh, hd, window)
            if stage == 'mixed':
                dur += G.t_attn_decode(P.get('decode_tokens', 0), ctx, nkv, hd, window) * 0.5
        if lib == 'sdpa':
            return []  # handled by hf path
        if lib == 'fa2':
            if stage == 'decode':
                return [self.K(KN['flash_splitkv'], [1, max(1, bs), nh], [128, 1, 1], dur, 'rt'),
                        self.K(KN['flash_splitkv_combine'], [max(1, bs * nh // 8), 1, 1], [128, 1, 1], 2.6, 'rt')]
            return [self.K(KX['fa2_fwd'], [max(1, ceil_div(T, 128)), max(1, bs), nh], [128, 1, 1], dur, 'rt')]
        if lib == 'fa3':
            ks = [self.K(KX['fa3_fwd'], [G.sms, 1, 1], [384, 1, 1], dur, 'exc')]
            if stage == 'decode' and bs * nkv < G.sms:
                ks.append(self.K(KX['fa3_combine'], [max(1, bs * nh // 8), 1, 1], [256, 1, 1], 3.0, 'exc'))
            return ks
        if lib == 'flashinfer':
            if stage == 'decode' and self.fw != 'vllm':
                return [self.K(KX['fi_decode'], [max(1, bs), nkv, 1], [16, 8, 1], dur, 'exc')]
            if self.fw == 'vllm':
                return [self.K(KN['fi_batch_prefill_paged'], [max(1, bs), 1, nkv], [32, 1, 4], dur, 'exc')]
            return [self.K(KX['fi_ragged_prefill'], [max(1, ceil_div(T, 128)), nkv, 1], [32, 4, 1], dur, 'exc')]
        if lib == 'trtgen':
            if stage == 'decode':
                if self.hd == 64:
                    nm = KX['fmha_sm100_gen_h64_swa'] if mixer == 'sliding' else KX['fmha_sm100_gen_h64']
                else:
                    nm = KN['fmha_sm100_gen']
                return [self.K(nm, [2, nkv, max(1, bs)], [512, 1, 1], dur, 'exc')]
            if self.hd == 64:
                nm = KN['fmha_sm100_ctx_swa'] if mixer == 'sliding' else KN['fmha_sm100_ctx']
            else:
                nm = KX['fmha_sm100_ctx_bf16']
            return [self.K(nm, [max(1, ceil_div(T, 256)), nh, 1], [512, 1, 1], dur, 'drv')]
        if lib == 'trt':
            if stage == 'decode':
                nm = KX['trt_xqa'] if h32(str(G.seed)) % 2 else KX['trt_mmha']
                return [self.K(nm, [max(1, bs), nkv, 1], [128, 1, 3], dur, 'exc')]
            sm = {'A100': 'sm80', 'H100': 'sm90', 'B200': 'sm100', 'B300': 'sm100', 'GB10': 'sm120'}.get(G.gpu, 'sm90')
            nm = KX['trt_fmha_ctx'].replace('sm90', sm)
            if sm == 'sm80':
                nm = nm.replace('_nl_tiled', '_nl')
            return [self.K(nm, [max(1, ceil_div(T, 128)), nh, 1], [128, 1, 1], dur, 'rt')]
        if lib == 'unified2d':
            return [self.K(KN['unified_attn_2d'], [nkv, max(1, ceil_div(T, 16)), 1], [256, 1, 1], dur, 'tri')]
        # aiter / ck (AMD)
        if stage == 'decode':
            nm = KN['pa_ll4mi_8'] if (h32(str(G.seed)) % 2) else KN['pa_ll4mi_4']
            return [self.K(nm, [max(1, bs), 1, nkv], [256, 1, 1], dur, 'rt'),
                    self.K(KN['pa_ll4mi_reduce'], [max(1, bs), nh, 1], [256, 1, 1], 4.0 + dur * 0.05, 'rt')]
        if self.fw == 'sglang':
            return [self.K(KN['ck_fmha_prefill'], [max(1, ceil_div(T, 128)), max(1, bs), nh], [256, 1, 1], dur, 'rt')]
        return [self.K(KX['aiter_fmha_fwd'], [max(1, ceil_div(T, 128)), nh, 1], [256, 1, 1], dur, 'tri')]

    def kv_write_ks(self):
        G, T = self.G, self.T
        dur = G.t_elem(T * self.nkv * self.hd * 2, 2)
        if self.fw == 'vllm':
            if self.amd:
                nm = KN['vllm_cache_hip']
            else:
                nm = KN['vllm_cache_fp8'] if (h32(str(G.seed)) % 2) else KX['vllm_cache_bf16']
            return self.K(nm, [T, 1, 1], [min(1024, self.nkv * self.hd) if not self.amd else 512, 1, 1], dur, 'rt')
        if self.fw == 'sglang':
            nm = KN['sgl_store_kvcache'] if self.amd else KX['sgl_store_kv']
            return self.K(nm, [T, 1, 1], [128, 1, 1], dur, 'rt')
        return self.K(KX['trt_rope_kv_ctx'], [T, 1, 1], [256, 1, 1], dur, 'rt')

    def mixer_attn(self, li, mixer):
        """GQA/MHA/sliding/global attention sub-block for vllm/sglang/trtllm."""
        G, T = self.G, self.T
        nh, nkv, hd, H = self.nh, self.nkv, self.hd, self.H
        fw = self.fw
        u = []
        qkv_n = (nh + 2 * nkv) * hd
        u.append(self.linear(T, qkv_n, H, 'qkv', bias=self.m['qkv_bias']))
        b300 = fw == 'sglang' and G.gpu == 'B300'
        if self.c['qknorm']:
            if b300:
                u.append(unit(OP('sgl_kernel::fused_qk_norm', [[T, qkv_n], [hd], [hd], []], k=True),
                              [self.K(KN['sgl_qknorm'], [min(144, T * (nh + nkv) // 4 + 1), 1, 1], [128, 1, 1], G.t_elem(T * (nh + nkv) * hd, 3))], role='qknorm', fuse='qknorm'))
            elif fw == 'trtllm':
                pass  # fused with rope below
            else:
                for which, heads in (('q', nh), ('k', nkv)):
                    nu = self.norm('rms', n=T * heads, width=hd)
                    for x in nu:
                        x['role'] = 'qknorm'
                        x['fuse'] = 'qknorm'
                    u.extend(nu)
        # rope (+ kv write for fused variants)
        fused_rope_kv = False
        if fw == 'vllm':
            u.append(unit(OP('_C::rotary_embedding', [[T], [T, nh * hd], [T, nkv * hd], [], [131072, hd], []], k=True),
                          [self.K(KN['vllm_rotary'], [T, 1, 1], [256, 1, 1], G.t_elem(T * (nh + nkv) * hd, 2))], role='rope', fuse='rope'))
        elif fw == 'sglang':
            if self.amd:
                if h32(str(G.seed)) % 2:
                    u.append(unit(OP('aiter::fused_qk_rope_reshape_and_cache', [[T, nh, hd], [T, nkv, hd], [T, nkv, hd], [], [T], []], k=True),
                                  [self.K(KN['aiter_qk_rope_cache'], [T, 1, 1], [256, 1, 1], G.t_elem(T * (nh + 2 * nkv) * hd, 2), 'tri')], role='rope_kv', eager=False))
                    fused_rope_kv = True
                else:
                    u.append(unit(OP('sgl_kernel::rotary_embedding', [[T], [T, nh * hd], [T, nkv * hd], [], [131072, hd], []], k=True),
                                  [self.K(KN['hip_rotary'], [T, 1, 1], [512, 1, 1], G.t_elem(T * (nh + nkv) * hd, 2))], role='rope'))
            elif b300:
                u.append(unit(OP('sgl_kernel::fused_rope_store', [[T, qkv_n], [T], []], k=True),
                              [self.K(KN['sgl_rope_store'], [min(80, T), 1, 1], [128, 1, 1], G.t_elem(T * (nh + 2 * nkv) * hd, 2))], role='rope_kv'))
                fused_rope_kv = True
            else:
                u.append(unit(OP('sgl_kernel::apply_rope_pos_ids_cos_sin_cache', [[T, nh, hd], [T, nkv, hd], [T, nh, hd], [T, nkv, hd], [131072, hd], [T], [], []], k=True),
                              [self.K(KX['fi_rope'], [max(1, ceil_div(T, 8)), 1, 1], [32, 8, 1], G.t_elem(T * (nh + nkv) * hd, 2))], role='rope'))
        else:
            if self.P['stage'] == 'decode' or self.c['qknorm']:
                u.append(unit(OP('trtllm::fused_qk_norm_rope', [[T, qkv_n], [], [], [], [], [hd], [hd], [], [], [T]], k=True),
                              [self.K(KX['trt_qknorm_rope'], [max(1, ceil_div(T * (nh + nkv), 4)), 1, 1], [128, 1, 1], G.t_elem(T * (nh + nkv) * hd, 3))], role='rope'))
        # attention core (eager in piecewise graphs)
        ak = self.attn_kernel(mixer)
        q3 = [T, nh, hd]
        kv3 = [T, nkv, hd]
        if fw == 'vllm':
            kvk = self.kv_write_ks()
            if G.kv_update_split:
                u.append(unit(OP('vllm::unified_kv_cache_update', [kv3, kv3, []], [
                    OP('_C_cache_ops::reshape_and_cache_flash', [kv3, kv3, [4096, 16, nkv, hd], [4096, 16, nkv, hd], [T], [], [], []], k=True)]),
                    [kvk], role='kv_write', eager=True))
                u.append(unit(OP('vllm::unified_attention_with_output', [q3, kv3, kv3, q3, [], [], [], [0]], k=True), ak, role='attn', eager=True))
            else:
                op = OP('vllm::unified_attention_with_output', [q3, kv3, kv3, q3, [], [], []], [
                    OP('aten::select', [[4096, 2, 16, nkv, hd], [], []], [LEAF('aten::as_strided', [[4096, 2, 16, nkv, hd], [], [], []])]),
                    OP('_C_cache_ops::reshape_and_cache_flash', [kv3, kv3, [4096, 16, nkv, hd], [4096, 16, nkv, hd], [T], [], [], []], k=True)])
                u.append(unit(op, [kvk], role='kv_write', eager=True, attn_ks=ak))
        elif fw == 'sglang':
            ks = [] if fused_rope_kv else [self.kv_write_ks()]
            op = OP('sglang::unified_attention_with_output' if h32(str(G.seed)) % 3 == 0 else 'sglang::attention', [q3, kv3, kv3, q3], [
                OP('sglang::set_kv_buffer', [kv3, kv3, [T]], k=True)] if ks else [], k=not ks)
            u.append(unit(op, ks, role='kv_write', eager=True, attn_ks=ak))
        else:
            ks = []
            if self.P['stage'] != 'decode':
                ks.append(self.kv_write_ks())
            u.append(unit(OP('trtllm::attention', [[T, qkv_n], [], [], [], [T, nh * hd]], k=True), ks + ak, role='attn', eager=True))
        u.append(self.linear(T, H, nh * hd, 'o_proj'))
        return u

    def mixer_mla(self, li):
        G, T, H = self.G, self.T, self.H
        nh = self.nh
        m = self.m
        kvl = m['kv_lora']
        ql = m['q_lora']
        P = self.P
        u = []
        if ql:
            u.append(self.linear(T, ql + kvl + 64, H, 'qkv_a'))
            u.extend(self.norm('rms', n=T, width=ql))
            u.extend(self.norm('rms', n=T, width=kvl))
            u.append(self.linear(T, nh * 192, ql, 'q_b'))
        else:
            u.append(self.linear(T, nh * 192, H, 'q_proj'))
            u.append(self.linear(T, kvl + 64, H, 'kv_a'))
            u.extend(self.norm('rms', n=T, width=kvl))
        for x in u:
            if x['role'] in ('rms', 'add_rms'):
                x['role'] = 'mla_norm'
        if self.fw == 'vllm':
            u.append(unit(OP('_C::rotary_embedding', [[T], [T, nh, 64], [T, 1, 64], [], [163840, 64], []], k=True),
                          [self.K(KN['vllm_rotary'], [T, 1, 1], [256, 1, 1], G.t_elem(T * (nh + 1) * 64, 2))], role='rope', fuse='rope'))
        else:
            u.append(unit(OP('sgl_kernel::rotary_embedding', [[T], [T, nh, 64], [T, 1, 64], [], [163840, 64], []], k=True),
                          [self.K(KN['hip_rotary'] if self.amd else KN['vllm_rotary'], [T, 1, 1], [256, 1, 1], G.t_elem(T * (nh + 1) * 64, 2))], role='rope'))
        cache = self.K(KX['hip_concat_mla'] if self.amd else KX['vllm_concat_mla'], [T, 1, 1], [576, 1, 1], G.t_elem(T * 576, 2), 'rt')
        ctx = P['ctx']
        ak = []
        if P['stage'] == 'decode':
            # absorbed: q_nope x W_UK (bmm), latent attention, x W_UV (bmm)
            ak += self.gemm_ks(nh, kvl, 128, 'w_uk', splitk_ok=False)
            dur = G.t_attn_decode(T, ctx, 1, 576) + 3.0
            if self.amd or G.attn_lib in ('flashinfer', 'unified2d', 'aiter') and self.amd:
                ak += [self.K(KX['mla_stage1'], [max(1, T), max(1, nh // 16), 16], [64, 1, 1], dur, 'tri'),
                       self.K(KX['mla_stage2'], [max(1, T), nh, 1], [128, 1, 1], 3.0, 'tri')]
            else:
                ak += [self.K(KX['flashmla'], [max(1, ceil_div(nh, 64)), G.sms // 2, 1], [256, 1, 1], dur, 'rt'),
                       self.K(KX['flashmla_combine'], [max(1, T), nh, 1], [128, 1, 1], 3.2, 'rt')]
            ak += self.gemm_ks(nh, 128, kvl, 'w_uv', splitk_ok=False)
        else:
            ak += self.gemm_ks(T, nh * 256, kvl, 'kv_b', splitk_ok=False)
            dur = G.t_attn_prefill(T, ctx, nh, 192)
            if self.amd:
                ak += [self.K(KX['aiter_fmha_fwd'], [max(1, ceil_div(T, 128)), nh, 1], [256, 1, 1], dur, 'tri')]
            elif G.gpu in ('B200', 'B300'):
                ak += [self.K(KX['fmha_sm100_ctx_bf16'], [max(1, ceil_div(T, 256)), nh, 1], [512, 1, 1], dur, 'drv')]
            elif G.gpu == 'H100':
                ak += [self.K(KX['fa3_fwd'], [G.sms, 1, 1], [384, 1, 1], dur, 'exc')]
            else:
                ak += [self.K(KX['fa2_fwd'], [max(1, ceil_div(T, 128)), P['nreq'], nh], [128, 1, 1], dur, 'rt')]
        q3 = [T, nh, 192]
        op = OP('vllm::unified_attention_with_output' if self.fw == 'vllm' else 'sglang::attention', [q3, [T, kvl], [T, 1, 64], [T, nh, 128], [], [], []], [
            OP('_C_cache_ops::concat_and_cache_mla', [[T, kvl], [T, 64], [4096, 64, 576], [T], [], []], k=True)])
        u.append(unit(op, [cache], role='kv_write', eager=True, attn_ks=ak))
        u.append(self.linear(T, H, nh * 128, 'o_proj'))
        return u

    def mixer_linear(self, li, kind):
        """GDN (gated delta net) or Mamba2 linear-attention mixer."""
        G, T, H = self.G, self.T, self.H
        P = self.P
        dec = P['stage'] == 'decode'
        nv = max(1, 32 // self.tp)
        hdim = 128
        u = []
        bs = P['nreq']
        if kind == 'gdn':
            u.append(self.linear(T, (4 * nv * hdim), H, 'in_proj_qkvz'))
            u.append(self.linear(T, 2 * nv, H, 'in_proj_ba'))
            if dec:
                ks = [self.K(KN['conv1d_update'], [max(1, T), 40, 1], [128, 1, 1], 3.0 + G.t_elem(T * nv * hdim * 3, 2), 'trix'),
                      self.K(KN['gdn_recurrent'], [max(1, T), nv * 6, 1], [32, 1, 1], 8.0 + G.t_elem(T * nv * hdim * hdim, 1), 'trix')]
            else:
                nchunk = ceil_div(T, 64)
                base = G.t_elem(T * nv * hdim, 3)
                ks = [self.K(KX['causal_conv1d_fwd'], [max(1, bs), ceil_div(T, 8), nv], [128, 1, 1], base, 'trix'),
                      self.K(KX['gdn_gating'], [max(1, T), 1, 1], [256, 1, 1], 2.5, 'trix'),
                      self.K(KX['gdn_l2norm'], [max(1, ceil_div(T * nv, 16)), 1, 1], [256, 1, 1], base * 0.6, 'trix'),
                      self.K(KX['gdn_cumsum'], [nchunk, nv, 1], [64, 1, 1], 3.0, 'trix'),
                      self.K(KX['gdn_kkt'], [nchunk, nv, 1], [128, 1, 1], base * 0.8, 'trix'),
                      self.K(KX['gdn_solve'], [nchunk, nv, 1], [128, 1, 1], base * 0.5, 'trix'),
                      self.K(KX['gdn_wu'], [nchunk, nv, 1], [128, 1, 1], base * 0.9, 'trix'),
                      self.K(KX['gdn_h'], [2, nv, max(1, bs)], [128, 1, 1], base * 1.5 + 10, 'trix'),
                      self.K(KX['gdn_o'], [2, nchunk, nv], [128, 1, 1], base * 1.2, 'trix')]
            u.append(unit(OP('vllm::gdn_attention_core' if self.fw == 'vllm' else 'fla::chunk_gated_delta_rule',
                             [[T, 4 * nv * hdim], [T, 2 * nv], [T, nv, hdim], []], k=True), ks, role='gdn_core', eager=True))
            u.append(unit(OP('vllm::fused_rms_norm_gated' if self.fw == 'vllm' else 'aten::mul', [[T * nv, hdim], [T * nv, hdim], [hdim], []], k=True),
                          [self.K(KX['gated_norm'], [max(1, T * nv), 1, 1], [128, 1, 1], G.t_elem(T * nv * hdim, 3), 'trix')], role='gnorm', fuse='gnorm'))
            u.append(self.linear(T, H, nv * hdim, 'out_proj'))
        else:
            dinner = 2 * H // self.tp
            ds = 128
            u.append(self.linear(T, 2 * dinner + 2 * ds + max(1, dinner // 64), H, 'in_proj'))
            if dec:
                ks = [self.K(KN['conv1d_update'], [max(1, T), max(1, dinner // 64), 1], [128, 1, 1], 3.0 + G.t_elem(T * dinner, 2), 'trix'),
                      self.K(KX['mamba_update'], [max(1, dinner // 64), max(1, T), max(1, dinner // 64)], [128, 1, 1], 5.0 + G.t_elem(T * dinner * ds, 1), 'trix')]
            else:
                nchunk = ceil_div(T, 256)
                base = G.t_elem(T * dinner, 3)
                ks = [self.K(KX['causal_conv1d_fwd'], [max(1, bs), ceil_div(T, 8), max(1, dinner // 64)], [128, 1, 1], base, 'trix'),
                      self.K(KX['mamba_cumsum'], [max(1, bs), nchunk, max(1, dinner // 64)], [128, 1, 1], 3.0, 'trix'),
                      self.K(KX['mamba_bmm'], [nchunk, max(1, bs), 1], [128, 1, 1], base * 0.7, 'trix'),
                      self.K(KX['mamba_state'], [nchunk, max(1, bs), max(1, dinner // 64)], [128, 1, 1], base * 1.1, 'trix'),
                      self.K(KX['mamba_pass'], [max(1, dinner // 64), max(1, bs), 1], [128, 1, 1], base * 0.4, 'trix'),
                      self.K(KX['mamba_scan'], [nchunk, max(1, bs), max(1, dinner // 64)], [128, 1, 1], base * 1.6 + 5, 'trix')]
            u.append(unit(OP('vllm::mamba_mixer2' if self.fw == 'vllm' else 'mamba_ssm::mamba_chunk_scan_combined',
                             [[T, H], [T, dinner], []], k=True), ks, role='mamba_core', eager=True))
            u.append(unit(OP('vllm::fused_rms_norm_gated' if self.fw == 'vllm' else 'aten::mul', [[T, dinner], [T, dinner], [dinner], []], k=True),
                          [self.K(KX['gated_norm'], [max(1, T), 1, 1], [128, 1, 1], G.t_elem(T * dinner, 3), 'trix')], role='gnorm', fuse='gnorm'))
            u.append(self.linear(T, H, dinner, 'out_proj'))
        return u

    # -- FFN
    def act_unit(self, n, width):
        G, fw = self.G, self.fw
        dur = G.t_elem(n * width, 3)
        if fw == 'vllm':
            nm = KX['vllm_silu_mul'] if not (G.gpu == 'GB10') else KN['vllm_silu_fp4']
            return unit(OP('_C::silu_and_mul', [[n, width], [n, 2 * width]], k=True), [self.K(nm, [n, 1, 1], [1024, 1, 1], dur)], role='act', fuse='act')
        if fw == 'sglang':
            nm = KN['sgl_hip_act'] if self.amd else KX['fi_silu_mul']
            return unit(OP('sgl_kernel::silu_and_mul', [[n, 2 * width], [n, width]], k=True), [self.K(nm, [n, 1, 1], [1024, 1, 1], dur)], role='act', fuse='act')
        return unit(OP('trtllm::silu_and_mul', [[n, 2 * width]], k=True), [self.K(KX['fi_silu_mul'], [n, 1, 1], [1024, 1, 1], dur)], role='act', fuse='act')

    def mlp(self, li, I=None, st='main', role='mlp'):
        T, H = self.T, self.H
        I = I or self.I
        u = [self.linear(T, 2 * I, H, 'gate_up' if role == 'mlp' else 'sh_gate_up', st=st),
             self.act_unit(T, I),
             self.linear(T, H, I, 'down' if role == 'mlp' else 'sh_down', st=st)]
        if st != 'main':
            for x in u:
                for k in x['ks']:
                    k['st'] = st
        return u

    def moe(self, li):
        G, T, H = self.G, self.T, self.H
        m = self.m
        E, topk = m['experts'], m['topk']
        I = max(128, m['moe_inter'] // self.tp)
        style = G.moe_style
        u = []
        side = self.c['shared_expert_side_stream']
        shared = []
        if self.c['shared_expert']:
            shared = self.mlp(li, I=max(256, m['moe_inter'] * 2 // self.tp), st='side' if side else 'main', role='shared')
            if h32('sg%d' % G.seed) % 2:
                sg = self.linear(T, 1, H, 'sh_gate', st='side' if side else 'main')
                sg['ks'].append(self.K(KX['sigmoid_bf16'], [max(1, ceil_div(T, 512)), 1, 1], [128, 1, 1], 2.0, 'rt', 'side' if side else 'main'))
                shared.append(sg)
            for x in shared:
                x['role'] = 'shared_expert'
        if side and shared:
            u.append(unit(None, [], role='fork', fork=True))
            u.extend(shared)
        u.append(self.linear(T, E, H, 'router'))
        # routed experts
        hit = min(E, T * topk)
        wbytes = hit * (3 * I * H) * 2.0
        tok = T * topk
        gemm1 = max(G.t_gemm(tok, 2 * I, H), wbytes * 2 / 3 / (G.bw * 0.75) * 1e6) + 4
        gemm2 = max(G.t_gemm(tok, H, I), wbytes / 3 / (G.bw * 0.75) * 1e6) + 3
        ks = []
        if style == 'triton':
            ks = [self.K(KX['vllm_topk_softmax'] if self.fw == 'vllm' else KX['sgl_topk_softmax'], [max(1, ceil_div(T, 8)), 1, 1], [32, 4, 1], 3.0, 'rt'),
                  self.K(KX['vllm_moe_align'] if self.fw == 'vllm' else KX['sgl_moe_align'], [1, 1, 1], [1024, 1, 1], 4.0, 'rt')]
            if self.fw == 'vllm' and T > 256:
                ks.append(self.K(KX['vllm_moe_count_sort'], [max(1, ceil_div(tok, 256)), 1, 1], [256, 1, 1], 3.0, 'rt'))
            ks += [self.K(KX['fused_moe'], [max(1, ceil_div(tok, 64) * ceil_div(2 * I, 128)), 1, 1], [128, 1, 1], gemm1, 'tri'),
                   self.K(KX['vllm_silu_mul'] if self.fw == 'vllm' else KX['fi_silu_mul'], [tok, 1, 1], [1024, 1, 1], G.t_elem(tok * I, 3), 'rt'),
                   self.K(KX['fused_moe'], [max(1, ceil_div(tok, 64) * ceil_div(H, 128)), 1, 1], [128, 1, 1], gemm2, 'tri'),
                   self.K(KX['vllm_moe_sum'] if self.fw == 'vllm' else KX['sgl_moe_sum'], [T, 1, 1], [256, 1, 1], G.t_elem(tok * H, 1), 'rt' if self.fw == 'vllm' else 'tri')]
            opn = 'vllm::moe_forward' if self.fw == 'vllm' else 'sglang::fused_moe'
        elif style == 'trtgen':
            if G.gpu == 'B300' or self.fw == 'sglang':
                ks = [self.K(KN['moe_route_custom'], [1, 1, 1], [512, 1, 1], 5.0, 'exc')]
            else:
                ks = [self.K(KN['trtllm_quant_block'], [min(740, T), 1, 1], [384, 1, 1], G.t_elem(T * H, 2), 'exc'),
                      self.K(KN['moe_route_hist_scores'], [1024, 1, 1], [128, 1, 1], 2.7, 'exc'),
                      self.K(KN['moe_route_hist'], [4, 1, 1], [128, 1, 1], 4.7, 'exc'),
                      self.K(KN['moe_route_offsets'], [4, 1, 1], [128, 1, 1], 4.7, 'exc')]
            mx = G.gpu == 'B200' and h32('mx%d' % G.seed) % 2
            ks += [self.K(KN['bmm_mxfp4_swiglu'] if mx else KN['bmm_bf16_swiglu'], [12, max(1, min(342, hit * 4)), 1], [384, 1, 1], gemm1 * (0.6 if mx else 1), 'drv'),
                   self.K(KN['bmm_mxfp4_down'] if mx else KN['bmm_bf16_down'], [16, max(1, min(342, hit * 4)), 1], [256, 1, 1], gemm2 * (0.6 if mx else 1), 'drv'),
                   self.K(KN['moe_finalize_vec'] if T > 64 else KN['moe_finalize'], [min(T, 888), 1, 1] if T > 64 else [8, max(1, T), 1], [256, 1, 1], 4.0 + G.t_elem(T * H, 2), 'exc')]
            opn = 'vllm::moe_forward' if self.fw == 'vllm' else 'sglang::trtllm_fp8_block_scale_moe'
        elif style == 'ogs':
            ks = [self.K('triton_poi_fused_constant_pad_nd_moe_forward_0', [max(1, ceil_div(T * H, 1024)), 1, 1], [256, 1, 1], G.t_elem(T * H, 2), 'tri'),
                  self.K(KN['topk_forward'], [max(1, ceil_div(T, 32)), 1, 1], [256, 1, 1], 6.0, 'tri'),
                  self.K(KN['sum_bitmatrix'], [max(1, ceil_div(E, 32)), 1, 1], [256, 1, 1], 5.0, 'tri'),
                  self.K(KN['routing_memset'], [8, 1, 1], [256, 1, 1], 6.0, 'tri'),
                  self.K(KN['routing_compute'], [max(1, ceil_div(tok, 256)), 1, 1], [256, 1, 1], 6.0, 'tri'),
                  self.K(KN['matmul_ogs_swiglu'], [G.sms, 1, 1], [256, 1, 1], gemm1, 'tri'),
                  self.K(KN['matmul_ogs_swiglu'].replace('_swiglu', ''), [G.sms, 1, 1], [256, 1, 1], gemm2, 'tri'),
                  self.K(KN['finalize_scatter'], [max(1, T), 1, 1], [256, 1, 1], G.t_elem(tok * H, 1), 'tri')]
            opn = 'vllm::moe_forward'
        elif style == 'aiter':
            ks = [self.K(KN['aiter_topk'], [max(1, ceil_div(T, 4)), 1, 1], [256, 1, 1], 4.3, 'rt'),
                  self.K(KN['ck_moe_sort'], [2, 1, 1], [256, 1, 1], 8.3, 'rt'),
                  self.K(KN['ck_moe_gemm'][0], [max(1, hit * 2), 1, 1], [256, 1, 1], gemm1, 'rt'),
                  self.K(KN['ck_moe_gemm'][1], [max(1, hit * 2), 1, 1], [256, 1, 1], gemm2, 'rt')]
            opn = 'aiter::fused_moe' if self.fw == 'sglang' else 'vllm::rocm_aiter_fused_moe'
        else:  # trt
            ks = [self.K(KX['trt_moe_routing'], [max(1, ceil_div(T, 8)), 1, 1], [256, 1, 1], 3.5, 'rt'),
                  self.K(KX['trt_expand'], [min(T * topk, 1024), 1, 1], [256, 1, 1], G.t_elem(tok * H, 2), 'rt'),
                  self.K(KX['trt_moe_gemm'], [G.sms, 1, 1], [384, 1, 1], gemm1, 'exc'),
                  self.K(KX['trt_doact'], [min(tok, 1024), 1, 1], [256, 1, 1], G.t_elem(tok * I, 3), 'rt'),
                  self.K(KX['trt_moe_gemm'], [G.sms, 1, 1], [384, 1, 1], gemm2, 'exc'),
                  self.K(KX['trt_finalize'], [max(1, T), 1, 1], [256, 1, 1], G.t_elem(tok * H, 1), 'rt')]
            opn = 'trtllm::fused_moe'
        u.append(unit(OP(opn, [[T, H], [T, E], []], k=True), ks, role='moe_experts'))
        if shared and not side:
            u.extend(shared)
        if side and shared:
            u.append(unit(None, [], role='join', join=True))
        return u

    # -- HF eager layer
    def hf_layer(self, li, kind):
        G, P = self.G, self.P
        T, H = self.T, self.H
        B, S = P['hf_bs']
        nh, nkv, hd = self.nh, self.nkv, self.hd
        mixer, ffn = kind.split('+')
        u = []
        u.extend(self.hf_rms_chain(T, H))
        if mixer in ('attn', 'sliding', 'global', 'mla'):
            bias = self.m['qkv_bias']
            if mixer == 'mla':
                u.append(self.linear(T, nh * 192, H, 'q_proj', hf3=(B, S)))
                u.append(self.linear(T, self.m['kv_lora'] + 64, H, 'kv_a', hf3=(B, S)))
                u.extend(self.hf_rms_chain(T, self.m['kv_lora']))
                u.append(self.linear(T, nh * 256, self.m['kv_lora'], 'kv_b', hf3=(B, S)))
            else:
                u.append(self.linear(T, nh * hd, H, 'q_proj', bias=bias, hf3=(B, S)))
                u.append(self.linear(T, nkv * hd, H, 'k_proj', bias=bias, hf3=(B, S)))
                u.append(self.linear(T, nkv * hd, H, 'v_proj', bias=bias, hf3=(B, S)))
                if self.c['qknorm']:
                    u.extend(self.hf_rms_chain(T * nh, hd))
                    u.extend(self.hf_rms_chain(T * nkv, hd))
            # rotary: q*cos + rotate_half(q)*sin, same for k
            for heads in (nh, nkv):
                d4 = [B, heads, S, hd]
                e = T * heads * hd
                g = max(1, ceil_div(e, 512))
                u.append(unit(OP('aten::mul', [d4, [1, 1, S, hd]], k=True), [self.K(KN['hf_mul_bf16'], [g, 1, 1], [128, 1, 1], G.t_elem(e, 3))], role='rope'))
                u.append(unit(OP('aten::neg', [[B, heads, S, hd // 2]], [LEAF('aten::slice', [d4, [], [], [], []]), LEAF('aten::slice', [d4, [], [], [], []])], k=True),
                              [self.K(KN['hf_neg_bf16'], [max(1, g // 2), 1, 1], [128, 1, 1], G.t_elem(e // 2, 2))], role='rope'))
                u.append(unit(OP('aten::cat', [[[B, heads, S, hd // 2], [B, heads, S, hd // 2]], []], k=True), [self.K(KN['hf_cat2'], [264, 2, 1], [512, 1, 1], G.t_elem(e, 2))], role='rope'))
                u.append(unit(OP('aten::mul', [d4, [1, 1, S, hd]], k=True), [self.K(KN['hf_mul_bf16'], [g, 1, 1], [128, 1, 1], G.t_elem(e, 3))], role='rope'))
                u.append(unit(OP('aten::add', [d4, d4, []], k=True), [self.K(KN['hf_add_bf16'], [g, 1, 1], [128, 1, 1], G.t_elem(e, 3))], role='rope'))
            # kv cache (DynamicCache.update -> torch.cat) in decode
            if P['stage'] == 'decode':
                ctx = P['ctx']
                for _ in range(2):
                    u.append(unit(OP('aten::cat', [[[B, nkv, ctx, hd], [B, nkv, S, hd]], []], k=True),
                                  [self.K(KN['hf_cat2'], [max(1, min(4096, B * nkv * ctx // 64)), 2, 1], [512, 1, 1], G.t_elem(B * nkv * ctx * hd, 2))], role='kv_cache'))
            ctx = P['ctx']
            if self.amd:
                dur = G.t_attn_prefill(T, ctx, nh, hd) if P['stage'] != 'decode' else G.t_attn_decode(T, ctx, nkv, hd)
                op = OP('aten::scaled_dot_product_attention', [[B, nh, S, hd], [B, nkv, ctx, hd], [B, nkv, ctx, hd], [], [], [], [], []], [
                    OP('aten::_scaled_dot_product_efficient_attention', [[B, nh, S, hd], [B, nh, ctx, hd], [B, nh, ctx, hd], [], [], [], [], []], [
                        OP('aten::_efficient_attention_forward', [[B, S, nh, hd], [B, ctx, nh, hd], [B, ctx, nh, hd], [], [], [], [], [], [], [], [], []], k=True)])])
                ks = [self.K(KX['aotriton_attn'], [max(1, ceil_div(S, 128)), nh, B], [256, 1, 1], dur, 'tri')]
            elif self.G.hf_sdpa == 'mem_eff' or mixer == 'mla':
                dur = (G.t_attn_prefill(T, ctx, nh, hd) if P['stage'] != 'decode' else G.t_attn_decode(T, ctx, nkv, hd)) * 1.4
                op = OP('aten::scaled_dot_product_attention', [[B, nh, S, hd], [B, nh, ctx, hd], [B, nh, ctx, hd], [B, 1, S, ctx], [], [], [], []], [
                    OP('aten::_scaled_dot_product_efficient_attention', [[B, nh, S, hd], [B, nh, ctx, hd], [B, nh, ctx, hd], [B, 1, S, ctx], [], [], [], []], [
                        OP('aten::_efficient_attention_forward', [[B, S, nh, hd], [B, ctx, nh, hd], [B, ctx, nh, hd], [], [], [], [], [], [], [], [], []], k=True)])])
                ks = [self.K(KX['hf_mem_eff'], [max(1, ceil_div(S, 64)), nh, B], [32, 4, 1], dur, 'rt')]
            else:
                # repeat_kv + contiguous copies (q, k, v) then flash
                for _ in range(3):
                    e = T * nh * hd
                    u.append(unit(OP('aten::contiguous', [[B, nh, S, hd], []], [OP('aten::clone', [[B, nh, S, hd], []], [LEAF('aten::empty_like', [[B, nh, S, hd], [], [], [], [], []]), OP('aten::copy_', [[B, nh, S, hd], [B, nh, S, hd], []], k=True)])]),
                                  [self.K(KN['copy_bf16'], [max(1, ceil_div(e, 512)), 1, 1], [128, 1, 1], G.t_elem(e, 2))], role='attn_copy'))
                fwd = OP('aten::_flash_attention_forward', [[B, S, nh, hd], [B, ctx, nh, hd], [B, ctx, nh, hd], [], [], [], [], [], [], [], [], [], [], [], []],
                         [LEAF('aten::empty_like', [[B, S, nh, hd], [], [], [], [], []]), LEAF('aten::empty', [[], [], [], [], [], []])], k=True)
                op = OP('aten::scaled_dot_product_attention', [[B, nh, S, hd], [B, nh, ctx, hd], [B, nh, ctx, hd], [], [], [], [], []], [
                    OP('aten::_scaled_dot_product_flash_attention', [[B, nh, S, hd], [B, nh, ctx, hd], [B, nh, ctx, hd], [], [], [], []], [
                        LEAF('aten::transpose', [[B, nh, S, hd], [], []]), fwd])])
                if P['stage'] == 'decode':
                    dur = G.t_attn_decode(T, ctx, nkv, hd)
                    ks = [self.K(KX['hf_flash_splitkv'], [1, B, nh], [128, 1, 1], dur, 'rt'),
                          self.K(KX['hf_flash_combine'], [max(1, B * nh // 8), 1, 1], [128, 1, 1], 2.6, 'rt')]
                else:
                    dur = G.t_attn_prefill(T, ctx, nh, hd, self.m['swa_window'] if mixer == 'sliding' else None)
                    ks = [self.K(KN['hf_flash_fwd'], [max(1, ceil_div(S, 128)), nh, B], [128, 1, 1], dur, 'rt')]
            u.append(unit(op, ks, role='attn'))
            e = T * nh * hd
            u.append(unit(OP('aten::contiguous', [[B, S, nh, hd], []], [OP('aten::clone', [[B, S, nh, hd], []], [OP('aten::copy_', [[B, S, nh, hd], [B, S, nh, hd], []], k=True)])]),
                          [self.K(KN['copy_bf16'], [max(1, ceil_div(e, 512)), 1, 1], [128, 1, 1], G.t_elem(e, 2))], role='attn_copy'))
            u.append(self.linear(T, H, nh * (128 if mixer == 'mla' else hd), 'o_proj', hf3=(B, S)))
        else:
            # linear-attention mixer in HF: projections + (fla/mamba_ssm) triton kernels
            lu = self.mixer_linear(li, mixer)
            for x in lu:
                x['eager'] = False
                if 'gemm' in x:
                    M, N, Kd, bias = x['gemm']
                    x2 = self.linear(M, N, Kd, x['role'][5:], bias=bias, hf3=(B, S))
                    x.update(x2)
            u.extend(lu)
        u.extend(self.allreduce())
        u.append(self.hf_add(T))
        u.extend(self.hf_rms_chain(T, H))
        if ffn == 'mlp':
            u.extend(self.hf_mlp(self.I))
        else:
            u.extend(self.hf_moe_loop(li))
        u.extend(self.allreduce())
        u.append(self.hf_add(T))
        return u

    def hf_mlp(self, I, role='mlp'):
        G, T, H = self.G, self.T, self.H
        B, S = self.P['hf_bs']
        u = [self.linear(T, I, H, 'gate' if role == 'mlp' else 'e_gate', hf3=(B, S)),
             unit(OP('aten::silu', [[B, S, I]], k=True), [self.K(KN['hf_silu'], [max(1, ceil_div(T * I, 512)), 1, 1], [128, 1, 1], G.t_elem(T * I, 2))], role='act'),
             self.linear(T, I, H, 'up' if role == 'mlp' else 'e_up', hf3=(B, S)),
             unit(OP('aten::mul', [[B, S, I], [B, S, I]], k=True), [self.K(KN['hf_mul_bf16_vec'], [max(1, ceil_div(T * I, 512)), 1, 1], [128, 1, 1], G.t_elem(T * I, 3))], role='act'),
             self.linear(T, H, I, 'down' if role == 'mlp' else 'e_down', hf3=(B, S))]
        return u

    def hf_moe_loop(self, li):
        """transformers MoE block: router, softmax/topk, one_hot, then a python
        loop over the experts that received tokens (data dependent), each
        with its own small GEMMs; torch.where/nonzero force host syncs."""
        G, T, H = self.G, self.T, self.H
        rng = self.rng
        B, S = self.P['hf_bs']
        E, topk = self.m['experts'], self.m['topk']
        I = max(128, self.m['moe_inter'])
        u = []
        u.append(self.linear(T, E, H, 'router', hf3=(B, S)))
        u.append(unit(OP('aten::softmax', [[T, E], [], []], [OP('aten::_softmax', [[T, E], [], []], k=True)]),
                      [self.K(KN['softmax_fwd'], [max(1, T), 1, 1], [128, 1, 1], 2.5)], role='router'))
        u.append(unit(OP('aten::topk', [[T, E], [], [], [], []], k=True),
                      [self.K(KX['topk_gather'], [max(1, T), 1, 1], [128, 1, 1], 3.5), self.K(KX['bitonic_sort'], [max(1, ceil_div(T, 16)), 1, 1], [16, 16, 1], 3.0)], role='router'))
        u.append(unit(OP('aten::sum', [[T, topk], [], [], []], k=True), [self.K(KX['sum_f32'], [max(1, ceil_div(T, 32)), 1, 1], [32, 16, 1], 2.2)], role='router'))
        u.append(unit(OP('aten::div_', [[T, topk], [T, 1]], k=True), [self.K(KN['div_f32'], [max(1, ceil_div(T * topk, 512)), 1, 1], [128, 1, 1], 1.8)], role='router'))
        u.append(unit(OP('aten::one_hot', [[T, topk], []], [OP('aten::zeros', [[], [], [], [], []], [OP('aten::zero_', [[T, topk, E]], [OP('aten::fill_', [[T, topk, E], []], k=True)])]),
                                                              OP('aten::scatter_', [[T, topk, E], [], [T, topk, 1], []], k=True)]),
                      [self.K(KN['fill_long'], [max(1, ceil_div(T * topk * E, 512)), 1, 1], [128, 1, 1], 1.8), self.K(KN['scatter_gather'], [max(1, ceil_div(T * topk, 512)), 1, 1], [128, 1, 1], 2.0)], role='router'))
        # expert_hit = nonzero(...) -> host sync
        counts = [0] * E
        for _ in range(T * topk if T * topk < 4096 else 4096):
            counts[min(E - 1, int(rng.random() ** 1.4 * E))] += 1
        scale = (T * topk) / max(1, sum(counts))
        counts = [int(round(x * scale)) for x in counts]
        u.append(unit(OP('aten::nonzero', [[E]], k=True), [self.K(KX['nonzero_init'], [1, 1, 1], [128, 1, 1], 1.5), self.K(KX['nonzero_sweep'], [1, 1, 1], [128, 1, 1], 2.0),
                                                           MEMCPY('DtoH', 8)], role='router', sync='stream'))
        for e in range(E):
            n = counts[e]
            if n <= 0:
                continue
            u.append(unit(OP('aten::where', [[E, topk, T]], [OP('aten::nonzero', [[topk, T]], k=True)]),
                          [self.K(KX['nonzero_init'], [1, 1, 1], [128, 1, 1], 1.5), self.K(KX['nonzero_sweep'], [1, 1, 1], [128, 1, 1], 2.0), MEMCPY('DtoH', 8)], role='expert_route', sync='stream'))
            u.append(unit(OP('aten::index', [[T, H], []], k=True), [self.K(KN['index_kernel2'], [max(1, ceil_div(n * H, 512)), 1, 1], [128, 1, 1], G.t_elem(n * H, 2))], role='expert'))
            u.append(self.linear(n, I, H, 'e_gate'))
            u.append(unit(OP('aten::silu', [[n, I]], k=True), [self.K(KN['hf_silu'], [max(1, ceil_div(n * I, 512)), 1, 1], [128, 1, 1], G.t_elem(n * I, 2))], role='expert'))
            u.append(self.linear(n, I, H, 'e_up'))
            u.append(unit(OP('aten::mul', [[n, I], [n, I]], k=True), [self.K(KN['hf_mul_bf16_vec'], [max(1, ceil_div(n * I, 512)), 1, 1], [128, 1, 1], G.t_elem(n * I, 3))], role='expert'))
            u.append(self.linear(n, H, I, 'e_down'))
            u.append(unit(OP('aten::mul', [[n, H], [n, 1]], k=True), [self.K(KN['hf_mul_bf16'], [max(1, ceil_div(n * H, 512)), 1, 1], [128, 1, 1], G.t_elem(n * H, 3))], role='expert'))
            u.append(unit(OP('aten::index_add_', [[T, H], [], [n], [n, H]], k=True), [self.K(KX['index_add'], [max(1, ceil_div(n * H, 512)), 1, 1], [128, 1, 1], G.t_elem(n * H, 3))], role='expert'))
        if self.c['shared_expert']:
            su = self.hf_mlp(max(256, self.m['moe_inter'] * 2), role='shared')
            for x in su:
                x['role'] = 'shared_expert'
            u.extend(su)
        return u

    # -- whole layer
    def layer(self, li, kind):
        if self.fw == 'hf':
            u = self.hf_layer(li, kind)
            for x in u:
                x['layer'] = li
            return u
        mixer, ffn = kind.split('+')
        u = []
        ar_norm = self.c['tp_style'] == 'ar_norm' and self.tp > 1
        # input norm: layer 0 plain rms; later layers fused add+rms unless the
        # previous layer's fused allreduce+norm already did it
        if li == 0:
            u.extend(self.norm('rms'))
        elif not ar_norm:
            u.extend(self.norm('add_rms'))
        if mixer in ('attn', 'sliding', 'global'):
            u.extend(self.mixer_attn(li, mixer))
        elif mixer == 'mla':
            u.extend(self.mixer_mla(li))
        else:
            u.extend(self.mixer_linear(li, mixer))
        ar = self.allreduce()
        u.extend(ar)
        if not ar or not ar_norm:
            u.extend(self.norm('add_rms'))
        if ffn == 'mlp':
            u.extend(self.mlp(li))
        else:
            u.extend(self.moe(li))
        u.extend(self.allreduce())
        for x in u:
            x['layer'] = li
        return u

    def sprinkle(self, li):
        """an extra kernel in some layers only (copies, fills, memsets)."""
        G, T, H = self.G, self.T, self.H
        r = self.rng.random()
        if r < 0.4:
            return unit(OP('aten::copy_', [[T, H], [T, H], []], k=True), [self.K(KN['copy_bf16'], [max(1, ceil_div(T * H, 512)), 1, 1], [128, 1, 1], G.t_elem(T * H, 2))], role='extra', layer=li)
        if r < 0.7:
            return unit(OP('aten::fill_', [[T, H], []], k=True), [self.K(KN['fill_bf16'], [max(1, ceil_div(T * H, 1024)), 1, 1], [128, 1, 1], G.t_elem(T * H, 1))], role='extra', layer=li)
        return unit(OP('aten::zero_', [[T, 8]], k=True), [MEMSET(T * 32)], role='extra', layer=li)

    # -- pass pieces
    def embedding(self):
        G, T, H = self.G, self.T, self.H
        V = self.m['vocab'] // self.tp
        u = []
        if self.fw == 'hf':
            B, S = self.P['hf_bs']
            u.append(unit(OP('aten::embedding', [[self.m['vocab'], H], [B, S], [], [], []], [
                OP('aten::reshape', [[B, S], []], [LEAF('aten::view', [[B, S], []])]),
                OP('aten::index_select', [[self.m['vocab'], H], [], [T]], [LEAF('aten::empty', [[], [], [], [], [], []])], k=True)]),
                [self.K(KN['index_large'], [min(4096, max(1, ceil_div(T * H, 1024))), 1, 1], [128, 1, 1], G.t_elem(T * H, 2))], role='embed'))
            # rotary cos/sin for the whole forward
            u.append(unit(OP('aten::matmul', [[1, self.hd // 2, 1], [1, 1, S]], [OP('aten::bmm', [[1, self.hd // 2, 1], [1, 1, S]], k=True)]),
                          [self.K(KN['hf_sgemm'], [4, 2, 1], [128, 1, 1], 3.5, 'tri')], role='rope_prep'))
            u.append(unit(OP('aten::cat', [[[1, S, self.hd // 2], [1, S, self.hd // 2]], []], k=True), [self.K(KN['hf_cat4'], [264, 2, 1], [512, 1, 1], 3.4)], role='rope_prep'))
            u.append(unit(OP('aten::cos', [[1, S, self.hd]], k=True), [self.K(KN['hf_cos'], [max(1, ceil_div(S * self.hd, 512)), 1, 1], [128, 1, 1], 2.0)], role='rope_prep'))
            u.append(unit(OP('aten::sin', [[1, S, self.hd]], k=True), [self.K(KN['hf_sin'], [max(1, ceil_div(S * self.hd, 512)), 1, 1], [128, 1, 1], 2.0)], role='rope_prep'))
            if self.P['stage'] != 'decode':
                # causal-mask check: .all() -> .item() host sync
                u.append(unit(OP('aten::eq', [[B, S], []], k=True), [self.K(KN['hf_eq'], [max(1, ceil_div(T, 512)), 1, 1], [128, 1, 1], 1.8)], role='mask'))
                u.append(unit(OP('aten::all', [[B, S]], k=True), [self.K(KN['hf_and'], [1, 1, 1], [512, 1, 1], 4.0)], role='mask'))
                u.append(unit(OP('aten::is_nonzero', [[]], [OP('aten::item', [[]], [OP('aten::_local_scalar_dense', [[]], k=True)])]), [MEMCPY('DtoH', 1)], role='mask', sync='stream'))
            return u
        nm = KN['index_small'] if (self.decode and self.fw == 'sglang') else (KN['index_large'] if self.fw != 'vllm' else KN['gather'])
        ks = [self.K(nm, [min(4096, max(1, T)), 2 if nm == KN['gather'] else 1, 1], [256 if nm == KN['gather'] else 128, 1, 1], G.t_elem(T * H, 2))]
        if self.tp > 1 and self.fw == 'vllm':
            ks.append(self.K(KN['masked_fill_bf16'], [max(1, ceil_div(T * H, 512)), 1, 1], [128, 1, 1], G.t_elem(T * H, 2)))
        u.append(unit(OP('aten::embedding', [[V, H], [T], [], [], []], [OP('aten::index_select', [[V, H], [], [T]], k=True)]), ks, role='embed'))
        if self.tp > 1 and self.fw in ('vllm', 'sglang', 'trtllm'):
            ar = self.allreduce()
            if ar and ar[0].get('replaces_norm'):
                ar = []
            u.extend(ar)
        return u

    def final_norm(self):
        if self.fw == 'hf':
            return self.hf_rms_chain(self.T, self.H)
        return self.norm('add_rms')

    def head(self):
        G, H = self.G, self.H
        S = self.P['S']
        V = self.m['vocab'] // self.tp
        u = []
        if self.fw == 'hf':
            B, Sq = self.P['hf_bs']
            u.append(unit(OP('aten::slice', [[B, Sq, H], [], [], [], []], [LEAF('aten::as_strided', [[B, Sq, H], [], [], []])]), [], role='head'))
            u.append(self.linear(B, self.m['vocab'], H, 'lm_head', hf3=(B, 1)))
            u.append(unit(OP('aten::to', [[B, 1, self.m['vocab']], [], [], [], []], [OP('aten::_to_copy', [[B, 1, self.m['vocab']], [], [], [], [], [], []], [OP('aten::copy_', [[B, 1, self.m['vocab']], [B, 1, self.m['vocab']], []], k=True)])]),
                          [self.K(KN['copy_f32_unrolled'], [max(1, ceil_div(B * self.m['vocab'], 512)), 1, 1], [128, 1, 1], G.t_elem(B * self.m['vocab'], 3))], role='head'))
            return u
        if self.P['stage'] != 'decode' and self.fw in ('vllm', 'sglang'):
            u.append(unit(OP('aten::index_select', [[self.T, H], [], [S]], k=True), [self.K(KN['gather'], [max(1, S), 2, 1], [256, 1, 1], 2.5)], role='head'))
        if self.G.rocm_gemm_op:
            u.append(unit(OP('vllm::rocm_unquantized_gemm', [[S, H], [V, H], []], k=True), self.gemm_ks(S, V, H, 'lm_head', splitk_ok=False), role='gemm:lm_head'))
        else:
            ks = self.gemm_ks(S, V, H, 'lm_head', splitk_ok=False)
            u.append(unit(OP('aten::linear', [[S, H], [V, H], []], [OP('aten::matmul', [[S, H], [H, V]], [OP('aten::mm', [[S, H], [H, V]], k=True)])]), ks, role='gemm:lm_head'))
        if self.tp > 1:
            coll = {'Collective name': '_allgather_base', 'In msg nelems': S * V, 'Out msg nelems': S * V * self.tp, 'Group size': self.tp,
                    'dtype': 'BFloat16', 'In split size': '[]', 'Out split size': '[]', 'Process Group Name': '3',
                    'Process Group Description': 'undefined', 'Process Group Ranks': str(list(range(self.tp)))}
            nm = KN['nccl_allgather'] if not self.amd else KX['rccl_generic']
            top = {'vllm': 'vllm::all_gather', 'sglang': 'sglang::all_gather_into_tensor', 'trtllm': 'trtllm::allgather'}.get(self.fw, 'c10d::allgather_')
            op = OP(top, [[S, V], [], [], []], [
                OP('c10d::_allgather_base_', [[self.tp, S, V], [S, V], [], [], []], [OP('record_param_comms', None, k=True, x={'Collective name': '_allgather_base', 'dtype': 'BFloat16', 'Process Group Name': '3'})])])
            u.append(unit(op, [self.K(nm, [11, 1, 1], [512, 1, 1], G.t_ar(S * V * 2 * self.tp, 'nccl'), 'drv', coll=coll)], role='gather_logits', nccl_ann=True))
        return u

    def sample(self):
        G = self.G
        S = self.P['S']
        V = self.m['vocab']
        u = []
        fw = self.fw
        topp = self.c['sampling'] == 'topp'
        if fw == 'hf':
            B = self.P['hf_bs'][0]
            if topp:
                u.append(unit(OP('aten::softmax', [[B, V], [], []], [OP('aten::_softmax', [[B, V], [], []], k=True)]), [self.K(KN['softmax_fwd'], [B, 1, 1], [1024, 1, 1], G.t_elem(B * V, 3))], role='sample'))
                u.append(unit(OP('aten::multinomial', [[B, V], [], [], []], k=True), [self.K(KX['multinomial'], [B, 1, 1], [256, 1, 1], 6.0 + G.t_elem(B * V, 1))], role='sample'))
            else:
                u.append(unit(OP('aten::argmax', [[B, V], [], []], k=True), [self.K(KN['argmax'], [max(1, B), 31, 1], [128, 4, 1], 4.0 + G.t_elem(B * V, 1))], role='sample'))
            # stopping criteria -> .item() host sync every step
            u.append(unit(OP('aten::isin', [[B], [1], [], []], k=True), [self.K(KN['hf_eq'], [1, 1, 1], [128, 1, 1], 1.6)], role='sample'))
            u.append(unit(OP('aten::max', [[B]], [OP('aten::item', [[]], [OP('aten::_local_scalar_dense', [[]], k=True)])]), [MEMCPY('DtoH', 1)], role='sample', sync='stream'))
            return u
        if topp and fw == 'sglang' and not self.amd:
            u.append(unit(OP('aten::softmax', [[S, V], [], []], [OP('aten::_softmax', [[S, V], [], []], k=True)]), [self.K(KN['softmax_fwd'], [S, 1, 1], [1024, 1, 1], G.t_elem(S * V, 3))], role='sample'))
            u.append(unit(OP('sgl_kernel::top_k_top_p_sampling_from_probs', [[S, V], [S], [], []], k=True), [self.K(KX['fi_sampling'], [S, 1, 1], [1024, 1, 1], 8.0 + G.t_elem(S * V, 1))], role='sample'))
        elif topp:
            sv = S * V
            g = max(1, ceil_div(sv, 4096))
            u.append(unit(OP('aten::div_', [[S, V], [S, 1]], k=True), [self.K(KN['div_f32'], [g, 1, 1], [128, 1, 1], G.t_elem(sv, 3))], role='sample'))
            u.append(unit(OP('aten::sort', [[S, V], [], [], []], k=True), [
                self.K(KN['fill_index_seg'], [g, 1, 1], [1024, 1, 1], G.t_elem(sv, 2)),
                self.K(KN['radix_hist_f'], [576, 1, 1], [128, 1, 1], G.t_elem(sv, 1)),
                self.K(KN['radix_excl_f'], [4, 1, 1], [256, 1, 1], 1.2),
                self.K(KN['radix_onesweep_f'], [185, 1, 1], [384, 1, 1], G.t_elem(sv, 2) + 5),
                self.K(KN['radix_onesweep_f'], [185, 1, 1], [384, 1, 1], G.t_elem(sv, 2) + 5),
                self.K(KN['sort_post'], [g, 1, 1], [512, 1, 1], G.t_elem(sv, 2))], role='sample'))
            u.append(unit(OP('aten::softmax', [[S, V], [], []], [OP('aten::_softmax', [[S, V], [], []], k=True)]), [self.K(KN['softmax_fwd'], [S, 1, 1], [1024, 1, 1], G.t_elem(sv, 3))], role='sample'))
            u.append(unit(OP('aten::cumsum', [[S, V], [], []], k=True), [self.K(KN['scan_innermost'], [S, 1, 1], [512, 1, 1], G.t_elem(sv, 2) + 4)], role='sample'))
            u.append(unit(OP('aten::le', [[S, V], [S, 1]], k=True), [self.K(KN['compare_f32'], [g, 1, 1], [128, 1, 1], G.t_elem(sv, 2))], role='sample'))
            u.append(unit(OP('aten::masked_fill_', [[S, V], [S, V], []], k=True), [self.K(KN['masked_fill_f32'], [g, 1, 1], [128, 1, 1], G.t_elem(sv, 2))], role='sample'))
            u.append(unit(OP('aten::scatter_', [[S, V], [], [S, V], [S, V]], k=True), [self.K(KN['scatter_gather'], [g, 1, 1], [128, 1, 1], G.t_elem(sv, 3))], role='sample'))
            u.append(unit(OP('aten::softmax', [[S, V], [], []], [OP('aten::_softmax', [[S, V], [], []], k=True)]), [self.K(KN['softmax_fwd'], [S, 1, 1], [1024, 1, 1], G.t_elem(sv, 3))], role='sample'))
            u.append(unit(OP('aten::exponential_', [[S, V], [], []], k=True), [self.K(KN['exponential'], [288, 1, 1], [256, 1, 1], G.t_elem(sv, 2))], role='sample'))
            u.append(unit(OP('aten::div', [[S, V], [S, V]], k=True), [self.K(KN['div_f32'], [g, 1, 1], [128, 1, 1], G.t_elem(sv, 3))], role='sample'))
            u.append(unit(OP('aten::argmax', [[S, V], [], []], k=True), [self.K(KN['argmax'], [max(1, S), 31, 1], [128, 4, 1], 4.0 + G.t_elem(sv, 1))], role='sample'))
        else:
            u.append(unit(OP('aten::argmax', [[S, V], [], []], k=True), [self.K(KN['argmax'], [max(1, S), 19, 1], [32, 16, 1], 4.0 + G.t_elem(S * V, 1))], role='sample'))
        return u

    def prep(self):
        """input staging for one step: HtoD copies, slot mapping, positions."""
        G, T = self.G, self.T
        fw = self.fw
        u = []
        rng = self.rng
        n = rng.randint(3, 7) if fw != 'hf' else 1
        for i in range(n):
            nb = [T * 4, T * 8, (self.P['nreq'] + 1) * 4, self.P['nreq'] * 4 * 32][i % 4]
            if fw == 'hf':
                B, S = self.P['hf_bs']
                op = OP('aten::to', [[B, S], [], [], [], []], [OP('aten::_to_copy', [[B, S], [], [], [], [], [], []], [LEAF('aten::empty_strided', [[], [], [], [], [], []]), OP('aten::copy_', [[B, S], [B, S], []], k=True)])])
                u.append(unit(op, [MEMCPY('HtoD', B * S * 8, src='Pageable')], role='prep'))
            else:
                op = OP('aten::copy_', [[nb // 4], [nb // 4], []], [], k=True)
                u.append(unit(OP('aten::slice', [[8192], [], [], [], []], [LEAF('aten::as_strided', [[8192], [], [], []])]), [], role='prep'))
                u.append(unit(op, [MEMCPY('HtoD', nb, src='Pinned' if rng.random() < 0.8 else 'Pageable')], role='prep'))
        if fw == 'vllm':
            u.append(unit(OP('aten::add', [[self.P['nreq']], [], []], k=True), [self.K(KN['add_int_self'], [1, 1, 1], [128, 1, 1], 1.5)], role='prep'))
            u.append(unit(None, [self.K(KN['slot_mapping'] if rng.random() < 0.6 else KN['copy_page_indices'], [max(1, min(8, self.P['nreq'])), 1, 1], [128, 1, 1], 2.5, 'trix')], role='prep'))
        elif fw == 'sglang':
            if self.c['async_steps'] or rng.random() < 0.5:
                u.append(unit(None, [self.K(KN['resolve_future'], [1, 1, 1], [256, 1, 1], 2.4, 'exc')], role='prep'))
                u.append(unit(None, [self.K(KN['clamp_position'], [1, 1, 1], [256, 1, 1], 1.9, 'exc')], role='prep'))
            u.append(unit(OP('aten::_foreach_copy_', [[[self.P['nreq']]] * 4, [[self.P['nreq']]] * 4, []], k=True), [self.K(KN['foreach_copy'], [4, 1, 1], [512, 1, 1], 1.5)], role='prep'))
            if self.amd:
                u.append(unit(OP('aten::cumsum', [[self.P['nreq']], [], []], k=True), [self.K(KN['rocprim_scan'], [1, 1, 1], [256, 1, 1], 3.3)], role='prep'))
            else:
                u.append(unit(OP('aten::cumsum', [[self.P['nreq']], [], []], k=True), [self.K(KN['scan_init'], [1, 1, 1], [128, 1, 1], 0.9), self.K(KN['scan'], [1, 1, 1], [128, 1, 1], 1.5)], role='prep'))
            u.append(unit(None, [self.K(KN['fi_kv_indices_triton'], [max(1, self.P['nreq']), 1, 1], [256, 1, 1], 5.0, 'trix')], role='prep'))
            if self.decode:
                u.append(unit(OP('sglang_profiler::common_alloc_paged_token_slots_decode_523', None, k=True), [self.K(KN['alloc_decode'], [max(1, self.P['nreq']), 1, 1], [128, 1, 1], 3.4, 'trix')], role='prep'))
            else:
                u.append(unit(None, [self.K(KX['alloc_extend'], [max(1, self.P['nreq']), 1, 1], [128, 1, 1], 4.0, 'trix')], role='prep'))
        elif fw == 'trtllm':
            u.append(unit(OP('aten::index_select', [[8192], [], [T]], k=True), [self.K(KN['gather'], [max(1, ceil_div(T, 256)), 1, 1], [256, 1, 1], 2.0)], role='prep'))
        return u


# --------------------------------------------------------------------------
# timeline simulator: one CPU thread launching onto GPU streams
# --------------------------------------------------------------------------
MEMCPY_NAMES_NV = {('HtoD', 'Pinned'): 'Memcpy HtoD (Pinned -> Device)', ('HtoD', 'Pageable'): 'Memcpy HtoD (Pageable -> Device)',
                   ('DtoH', 'Pinned'): 'Memcpy DtoH (Device -> Pinned)', ('DtoH', 'Pageable'): 'Memcpy DtoH (Device -> Pageable)',
                   ('DtoD', 'Pinned'): 'Memcpy DtoD (Device -> Device)', ('DtoD', 'Pageable'): 'Memcpy DtoD (Device -> Device)'}
MEMCPY_NAMES_AMD = {'HtoD': 'Memcpy HtoD (Host -> Device)', 'DtoH': 'Memcpy DtoH (Device -> Host)', 'DtoD': 'Memcpy DtoD (Device -> Device)'}


class Sim:
    def __init__(self, G):
        self.G = G
        self.rng = random.Random(G.seed * 31 + 7)
        rng = self.rng
        self.amd = G.amd
        self.t = 0.0
        self.gq = {'main': 0.0, 'side': 0.0}
        self.sid = {'main': G.stream_main, 'side': G.stream_side}
        self.ext = rng.randint(1, 300000)
        self.corr = rng.randint(10, 2000000)
        self.cpu = []
        self.recs = []
        self.stack = []
        self.kern = []
        self.anns = []
        self.step = None
        self.cspeed = G.c['cpu_speed'] * (1.5 if G.fw == 'hf' else 1.0)
        self.jit = G.c['jitter']
        self.shapes = G.c['record_shapes']
        self.pid = G.cpu_pid
        self.graph_id = rng.randint(1, 50) if G.c['graph_ids'] else None
        self.node_base = rng.randint(10 ** 11, 3 * 10 ** 12)
        self.stall_marks = []

    def nid(self):
        self.ext += 1
        return self.ext

    def ncorr(self):
        self.corr += 1 + (self.rng.random() < 0.3) * self.rng.randint(1, 6)
        return self.corr

    def small(self, a=0.4, b=3.0):
        return self.rng.uniform(a, b) * self.cspeed

    def jd(self, d):
        return max(0.6, d * math.exp(self.rng.gauss(0.0, self.jit)))

    # ---- cpu side
    def op_begin(self, name, dims=None, x=None, types=None, cat='cpu_op'):
        args = {'External id': self.nid(), 'Record function id': 0}
        if self.shapes and dims is not None:
            args['Input type'] = types or [('c10::BFloat16' if isinstance(d, list) and d else ('Scalar' if i < 2 else '')) for i, d in enumerate(dims)]
            args['Input Dims'] = dims
        if x:
            args.update(x)
        ev = {'ph': 'X', 'cat': cat, 'name': name, 'pid': self.pid, 'tid': self.pid, 'ts': self.t, 'dur': 0.0,
              'args': args, '_step': self.step}
        self.cpu.append(ev)
        self.stack.append(ev)
        self.t += self.small(0.3, 2.5)
        return ev

    def op_end(self):
        ev = self.stack.pop()
        self.t += self.small(0.2, 1.5)
        ev['dur'] = self.t - ev['ts']
        return ev

    def leaf(self, name, dims=None, x=None):
        self.op_begin(name, dims, x)
        self.t += self.small(0.1, 1.0)
        self.op_end()

    def ann_begin(self, name, kind='step'):
        ev = {'ph': 'X', 'cat': 'user_annotation', 'name': name, 'pid': self.pid, 'tid': self.pid, 'ts': self.t,
              'dur': 0.0, 'args': {'External id': None if self.G.c['ann_id_after'] and kind == 'step' else self.nid(),
                                   'Record function id': 0}, '_step': self.step, '_kind': kind}
        self.cpu.append(ev)
        self.anns.append(ev)
        self.t += self.small(0.5, 3.0)
        return ev

    def ann_end(self, ev):
        self.t += self.small(0.5, 2.0)
        ev['dur'] = self.t - ev['ts']
        if ev['args']['External id'] is None:
            ev['args']['External id'] = self.nid()

    # ---- runtime / gpu side
    def _rt(self, name, cat, dur, corr, ext=None, extra=None):
        args = {}
        if ext is not None:
            args['External id'] = ext
        if self.amd:
            if extra:
                args.update(extra)
            args['cid'] = AMD_CID.get(name, 100)
            args['correlation'] = corr
        else:
            args['cbid'] = NV_CBID.get(name, 200)
            args['correlation'] = corr
        ev = {'ph': 'X', 'cat': cat, 'name': name, 'pid': self.pid, 'tid': self.pid, 'ts': self.t, 'dur': dur,
              'args': args, '_step': self.step}
        return ev

    def cur_ext(self):
        return self.stack[-1]['args']['External id'] if self.stack else None

    def other_rt(self, nv_name, amd_name=None):
        name = (amd_name or nv_name.replace('cuda', 'hip')) if self.amd else nv_name
        ev = self._rt(name, 'cuda_runtime', self.small(0.1, 2.0), self.ncorr(), self.cur_ext() if self.rng.random() < 0.3 else None)
        self.recs.append({'rt': ev, 'ks': [], 'kind': 'other'})
        self.t += ev['dur'] + self.small(0.1, 0.8)
        return ev

    def kernel_event(self, k, start, dur, corr, ext, graph_node=None):
        G = self.G
        st = self.sid[k.get('st', 'main')]
        name = k['n']
        if self.amd:
            args = {}
            if ext is not None:
                args['External id'] = ext
            args['device'] = G.gpu_pid
            args['stream'] = st
            args['correlation'] = corr
            args['kind'] = 'Dispatch Task' if graph_node is not None else 'Dispatch Kernel'
            if graph_node is None:
                args['grid'] = list(k['g'])
                args['block'] = list(k['b'])
        else:
            regs, smem = G.kattrs(name)
            g, b = k['g'], k['b']
            blocks = g[0] * g[1] * g[2]
            thr = b[0] * b[1] * b[2]
            args = {}
            if ext is not None:
                args['External id'] = ext
            args.update({'queued': 0, 'device': G.gpu_pid, 'context': 1, 'stream': st, 'correlation': corr,
                         'registers per thread': regs, 'shared memory': smem,
                         'blocks per SM': round(blocks / float(G.sms), 6),
                         'warps per SM': round(blocks * max(1, thr // 32) / float(G.sms), 6),
                         'grid': list(g), 'block': list(b),
                         'est. achieved occupancy %': min(100, int(blocks * thr / (G.sms * 20.48)))})
            if self.graph_id is not None:
                args['graph id'] = self.graph_id if graph_node is not None else 0
                args['graph node id'] = graph_node if graph_node is not None else 0
        if k.get('coll'):
            args.update(k['coll'])
        ev = {'ph': 'X', 'cat': 'kernel', 'name': name, 'pid': G.gpu_pid, 'tid': st, 'ts': start, 'dur': dur, 'args': args}
        return ev

    def mem_event(self, k, start, dur, corr, ext, graph_node=None):
        G = self.G
        st = self.sid[k.get('st', 'main')]
        if k['mem'] == 'memset':
            name, cat = 'Memset (Device)', 'gpu_memset'
        else:
            cat = 'gpu_memcpy'
            name = MEMCPY_NAMES_AMD[k['kind']] if self.amd else MEMCPY_NAMES_NV[(k['kind'], k.get('src', 'Pinned'))]
        args = {}
        if ext is not None:
            args['External id'] = ext
        args['device'] = G.gpu_pid
        if not self.amd:
            args['context'] = 1
        args['stream'] = st
        args['correlation'] = corr
        if self.amd:
            args['kind'] = 'Memset' if k['mem'] == 'memset' else k['kind']
        args['bytes'] = k['bytes']
        args['memory bandwidth (GB/s)'] = k['bytes'] / max(dur, 0.1) / 1000.0
        if not self.amd and self.graph_id is not None:
            args['graph id'] = self.graph_id if graph_node is not None else 0
            args['graph node id'] = graph_node if graph_node is not None else 0
        return {'ph': 'X', 'cat': cat, 'name': name, 'pid': G.gpu_pid, 'tid': st, 'ts': start, 'dur': dur, 'args': args}

    def mem_dur(self, k):
        if k['mem'] == 'memset':
            return self.jd(0.7 + k['bytes'] / 1e12 * 1e6)
        bw = 2.2e10 if k['kind'] in ('HtoD', 'DtoH') else self.G.bw * 0.5
        return self.jd(1.0 + k['bytes'] / bw * 1e6)

    def launch(self, k, tag):
        """one eager launch: runtime event on the CPU, kernel/memcpy on a stream."""
        rng = self.rng
        ext = self.cur_ext()
        corr = self.ncorr()
        st = k.get('st', 'main')
        if 'mem' in k:
            if k['mem'] == 'memset':
                nm = 'hipMemsetAsync' if self.amd else 'cudaMemsetAsync'
                extra = None
            else:
                nm = 'hipMemcpyAsync' if self.amd else 'cudaMemcpyAsync'
                extra = {'src': '0x7f%010x' % rng.getrandbits(40), 'dst': '0x7f%010x' % rng.getrandbits(40),
                         'bytes': str(k['bytes']), 'kind': {'HtoD': '1', 'DtoH': '2', 'DtoD': '3'}[k['kind']]} if self.amd else None
            rdur = self.small(2.0, 9.0)
            rt = self._rt(nm, 'cuda_runtime', rdur, corr, ext, extra)
            start = max(self.gq[st], self.t + rng.uniform(2.0, 8.0))
            dur = self.mem_dur(k)
            ev = self.mem_event(k, start, dur, corr, ext)
            if k['mem'] == 'memcpy' and k['kind'] == 'DtoH' and k.get('src') == 'Pageable':
                rt['dur'] = max(rdur, start + dur - self.t + 1.0)
        else:
            api = API[k['api']]
            name = api[2] if self.amd else api[0]
            cat = 'cuda_runtime' if self.amd else api[1]
            base = {'rt': (2.2, 7.0), 'exc': (3.0, 9.0), 'drv': (4.0, 12.0), 'tri': (6.0, 20.0), 'trix': (4.0, 12.0)}[k['api']]
            rdur = self.small(*base)
            if rng.random() < 0.008:
                rdur += rng.uniform(30, 300)
            extra = None
            if self.amd:
                extra = {'kernel': k['n'], 'grid': list(k['g']), 'block': list(k['b']), 'shared memory': 0}
            rt = self._rt(name, cat, rdur, corr, ext, extra)
            start = max(self.gq[st], self.t + rng.uniform(2.5, 9.0))
            dur = self.jd(k['d'])
            ev = self.kernel_event(k, start, dur, corr, ext)
        ev['_tag'] = tag
        self.gq[st] = start + ev['dur'] + rng.uniform(0.6, 2.2)
        self.recs.append({'rt': rt, 'ks': [ev], 'kind': 'launch'})
        self.kern.append(ev)
        self.t += rt['dur'] + self.small(0.2, 1.2)
        return ev

    def graph_launch(self, units):
        rng = self.rng
        items = []
        for u in units:
            if u.get('fork') or u.get('join'):
                items.append(u)
                continue
            for k in u['ks'] + u.get('attn_ks', []):
                items.append((k, u['_tag']))
        nk = sum(1 for x in items if isinstance(x, tuple))
        if nk == 0:
            return
        corr = self.ncorr()
        rdur = (6.0 + nk * rng.uniform(0.35, 1.3)) * self.cspeed
        rt = self._rt('hipGraphLaunch' if self.amd else 'cudaGraphLaunch', 'cuda_runtime', rdur, corr, None)
        start = max(self.gq['main'], self.t + rng.uniform(4.0, 15.0))
        cur = {'main': start, 'side': max(self.gq['side'], start)}
        evs = []
        node = self.node_base
        for it in items:
            if isinstance(it, dict):
                if it.get('fork'):
                    cur['side'] = max(cur['side'], cur['main'])
                else:
                    cur['main'] = max(cur['main'], cur['side'])
                continue
            k, tag = it
            st = k.get('st', 'main')
            s = cur[st]
            node += 1
            if 'mem' in k:
                dur = self.mem_dur(k)
                ev = self.mem_event(k, s, dur, corr, None, node)
            else:
                dur = self.jd(k['d'])
                ev = self.kernel_event(k, s, dur, corr, None, node)
            ev['_tag'] = tag
            cur[st] = s + dur + rng.uniform(0.3, 1.6)
            evs.append(ev)
            self.kern.append(ev)
        self.node_base = node + rng.randint(100, 5000)
        self.gq['main'] = cur['main']
        self.gq['side'] = max(self.gq['side'], cur['side'])
        self.recs.append({'rt': rt, 'ks': evs, 'kind': 'graph'})
        self.t += rdur + self.small(0.3, 2.0)

    def sync(self, kind='stream', target=None):
        names = {'stream': 'cudaStreamSynchronize', 'device': 'cudaDeviceSynchronize', 'event': 'cudaEventSynchronize'}
        nm = names[kind]
        if self.amd:
            nm = nm.replace('cuda', 'hip')
        if target is None:
            target = max(self.gq.values()) if kind == 'device' else self.gq['main']
        end = max(self.t + self.small(0.5, 2.0), target + self.rng.uniform(1.5, 6.0))
        ev = self._rt(nm, 'cuda_runtime', end - self.t, self.ncorr(), self.cur_ext() if kind == 'stream' and self.stack else None)
        self.recs.append({'rt': ev, 'ks': [], 'kind': 'other'})
        self.t = end + self.small(0.2, 1.0)

    def fork(self):
        self.other_rt('cudaEventRecord', 'hipEventRecord')
        self.other_rt('cudaStreamWaitEvent', 'hipStreamWaitEvent')
        self.gq['side'] = max(self.gq['side'], self.gq['main'])

    def join(self):
        self.other_rt('cudaEventRecord', 'hipEventRecord')
        self.other_rt('cudaStreamWaitEvent', 'hipStreamWaitEvent')
        self.gq['main'] = max(self.gq['main'], self.gq['side'])


# --------------------------------------------------------------------------
# rendering units
# --------------------------------------------------------------------------
FUSE_TRITON = {'rms': ('red', '_to_copy_mean_mul_pow_rsqrt'), 'add_rms': ('red', '_to_copy_add_mean_mul_pow_rsqrt'),
               'act': ('poi', 'mul_silu'), 'rope': ('poi', 'add_cat_index_select_mul_neg_split'),
               'qknorm': ('per', '_to_copy_mean_mul_pow_rsqrt_view'), 'gnorm': ('red', '_to_copy_mean_mul_pow_rsqrt_sigmoid'),
               'add': ('poi', 'add')}


def render_op(sim, node, u, top):
    sim.op_begin(node['n'], node['d'], node['x'], node['t'])
    launched = False
    for ch in node['c']:
        if render_op(sim, ch, u, False):
            launched = True
    if node['k'] and not u.get('_launched'):
        u['_launched'] = True
        for k in u['ks']:
            sim.launch(k, u['_tag'])
        if u.get('sync'):
            sim.sync('stream')
        launched = True
    if top:
        if not u.get('_launched'):
            u['_launched'] = True
            for k in u['ks']:
                sim.launch(k, u['_tag'])
            if u.get('sync'):
                sim.sync('stream')
        for k in u.get('attn_ks', []):
            sim.launch(k, u['_tag'])
    sim.op_end()
    return launched


def render_eager(sim, u):
    if u.get('stall'):
        sim.stall_marks.append((sim.t, u['_tag']))
        sim.t += u['stall']
        return
    if u.get('fork'):
        sim.fork()
        return
    if u.get('join'):
        sim.join()
        return
    sim.t += sim.small(1.0, 6.0) * (2.5 if sim.G.fw == 'hf' else 1.0)
    if u['op'] is None:
        for k in u['ks'] + u.get('attn_ks', []):
            sim.launch(k, u['_tag'])
        if u.get('sync'):
            sim.sync('stream')
        return
    u.pop('_launched', None)
    if u.get('nccl_ann'):
        a = sim.ann_begin('nccl:_all_gather_base', kind='nccl')
        render_op(sim, u['op'], u, True)
        sim.ann_end(a)
        return
    render_op(sim, u['op'], u, True)


def split_pieces(units):
    """consecutive graph-capturable units form a piece; eager units split."""
    out, cur = [], []
    for u in units:
        if u.get('eager'):
            if cur:
                out.append(('piece', cur))
                cur = []
            out.append(('eager', u))
        elif u.get('stall'):
            if cur:
                out.append(('piece', cur))
                cur = []
            out.append(('stall', u))
        else:
            cur.append(u)
    if cur:
        out.append(('piece', cur))
    return out


def inductor_transform(G, units, eager_ops, fuse=True):
    """torch.compile: norms/activations/rope become Inductor Triton kernels,
    numbered per compiled piece (pieces split at attention), so the fused
    residual-add+norm that ends one layer and starts the next is one kernel."""
    out = []
    idx = 0
    first = True
    for u in units:
        if u.get('eager') or u.get('stall'):
            out.append(u)
            idx = 0
            first = True
            continue
        if first and fuse and G.glue_kernels and not u.get('fork') and not u.get('join'):
            for _ in range(G.glue_kernels):
                nm = 'triton_poi_fused_%d' % idx
                idx += 1
                k = {'n': nm, 'g': [48, 1, 1], 'b': [256, 1, 1], 'd': 0.8, 'api': 'tri', 'st': 'main'}
                op = OP(nm, [[1]], k=True, x={'kernel_name': nm, 'kernel_backend': 'triton', 'num_warps': 4, 'stream': 0}) if eager_ops else None
                out.append(unit(op, [k], role='glue', layer=u.get('layer'), _tag=u['_tag']))
        first = False
        f = u.get('fuse')
        if fuse and f in FUSE_TRITON and u['ks']:
            kind, suf = FUSE_TRITON[f]
            nm = 'triton_%s_fused_%s_%d' % (kind, suf, idx)
            idx += 1
            k0 = u['ks'][0]
            k = dict(k0)
            k['n'] = nm
            k['api'] = 'tri'
            k['d'] = k0['d'] * 0.9 * (len(u['ks']))
            k['b'] = [256 if kind == 'poi' else 512, 1, 1]
            nu = dict(u)
            nu['ks'] = [k]
            nu['op'] = OP(nm, [d for d in (u['op']['d'] or [])][:3], k=True,
                          x={'kernel_name': nm, 'kernel_backend': 'triton', 'num_warps': 4 if kind == 'poi' else 8, 'stream': 0}) if (eager_ops and u['op']) else None
            out.append(nu)
        elif 'gemm' in u and eager_ops:
            M, N, Kd, bias = u['gemm']
            nu = dict(u)
            nu['op'] = OP('aten::addmm' if bias else 'aten::mm', [[N], [M, Kd], [Kd, N], [], []] if bias else [[M, Kd], [Kd, N]], k=True)
            out.append(nu)
        else:
            out.append(u)
    return out


# --------------------------------------------------------------------------
# the whole trace
# --------------------------------------------------------------------------
class Trace:
    def __init__(self, seed, names):
        self.G = G = Gen(seed, names)
        self.c, self.m = G.c, G.m
        self.rng = random.Random(seed * 7 + 3)
        self.plan = None
        self.debug = {}

    # ---------------- planning
    def new_pass(self, stage, T, nreq, ctx, S=None, draft=False, hf_bs=None, **kw):
        P = {'stage': stage, 'T': int(T), 'nreq': int(max(1, nreq)), 'ctx': int(max(1, ctx)), 'S': int(S or max(1, nreq)),
             'draft': draft}
        if hf_bs:
            P['hf_bs'] = hf_bs
        P.update(kw)
        return P

    def prefill_pass(self, big=False):
        rng, fw = self.rng, self.G.fw
        if fw == 'hf':
            B = rng.choice([1, 1, 2, 4, 8, 16])
            S = rng.randint(16, 2048 if big else 1024)
            while B * S > 16384:
                S //= 2
            return self.new_pass('prefill', B * S, B, S, S=B, hf_bs=(B, S), sq=[S] * B, sk=[S] * B)
        n = rng.randint(1, 16)
        sq = [rng.randint(24, 4096 if not big else 16384) for _ in range(n)]
        cap = 16384 if big else 8192
        while sum(sq) > cap and len(sq) > 1:
            sq.pop()
        if sum(sq) > cap:
            sq = [cap]
        sk = [x + (rng.choice([0, 0, 0, 512, 1024]) if x < 4096 else 0) for x in sq]
        T = sum(sq)
        return self.new_pass('prefill', T, len(sq), sum(sk) // len(sk), S=len(sq), sq=sq, sk=sk)

    def decode_pass(self, step_i=0):
        rng, fw = self.rng, self.G.fw
        bs = self.c['decode_bs']
        if fw == 'hf':
            B = self.hf_B or min(bs, 16)
            ctx = self.hf_ctx + step_i
            return self.new_pass('decode', B, B, ctx, S=B, hf_bs=(B, 1), sq=[1] * B, sk=[ctx] * B)
        sk = [rng.randint(64, 8192) + step_i for _ in range(bs)]
        k = self.G.draft['k'] if self.G.draft else 0
        T = bs * (k + 1)
        return self.new_pass('decode', T, bs, sum(sk) // bs, S=T if k else bs, sq=[k + 1] * bs, sk=sk, spec_k=k)

    def mixed_pass(self):
        rng = self.rng
        npf = rng.randint(1, 8)
        sq = [rng.randint(16, 2048) for _ in range(npf)]
        budget = rng.choice([2048, 4096, 8192])
        while sum(sq) > budget - self.c['decode_bs'] and len(sq) > 1:
            sq.pop()
        if sum(sq) > budget:
            sq = [max(16, budget - self.c['decode_bs'])]
        sk = [x + rng.choice([0, 0, 1024, 3000]) for x in sq]
        nd = self.c['decode_bs']
        dsk = [rng.randint(100, 8000) for _ in range(nd)]
        T = sum(sq) + nd
        return self.new_pass('mixed', T, len(sq) + nd, (sum(sk) + sum(dsk)) // (len(sq) + nd), S=len(sq) + nd,
                             sq=sq, sk=sk, dsq=[1] * nd, dsk=dsk, prefill_tokens=sum(sq), prefill_requests=len(sq),
                             decode_tokens=nd)

    def chunk_passes(self):
        rng = self.rng
        C = rng.choice([1024, 2048, 4096, 8192])
        L = rng.randint(int(C * 1.5), C * 4)
        out = []
        done = 0
        while done < L and len(out) < 4:
            t = min(C, L - done)
            out.append(self.new_pass('prefill', t, 1, done + t, S=1, sq=[t], sk=[done + t]))
            done += t
        return out

    def make_plan(self, n_dec_override=None):
        c, rng, fw = self.c, self.rng, self.G.fw
        self.hf_ctx = rng.randint(32, 1500)
        self.hf_B = None
        steps = []
        kind = c['plan']
        nd = n_dec_override if n_dec_override is not None else rng.randint(2, 8 if fw != 'hf' else 4)

        def step(passes, **kw):
            s = {'passes': passes}
            s.update(kw)
            steps.append(s)

        if kind == 'prefill+decode':
            p = self.prefill_pass()
            if fw == 'hf':
                self.hf_ctx = p['hf_bs'][1]
                self.hf_B = p['hf_bs'][0]
            step([p])
            for i in range(nd):
                step([self.decode_pass(i + 1)])
            if rng.random() < 0.2 and fw != 'hf':
                step([self.prefill_pass()])
                for i in range(rng.randint(1, 3)):
                    step([self.decode_pass(i + 1)])
        elif kind == 'decode-only':
            for i in range(nd + 1):
                step([self.decode_pass(i)])
        elif kind == 'prefill-only':
            for _ in range(rng.randint(1, 3)):
                step([self.prefill_pass()])
        elif kind == 'mixed':
            for _ in range(max(1, min(4, nd // 2 + 1))):
                step([self.mixed_pass()])
        else:
            st = c['chunk_style']
            if st == 'steps':
                for p in self.chunk_passes():
                    step([p])
            elif st == 'one-step':
                step(self.chunk_passes())
            else:
                p = self.prefill_pass(big=True)
                if fw == 'hf':
                    self.hf_ctx = p['hf_bs'][1]
                    self.hf_B = p['hf_bs'][0]
                step([p])
            for i in range(rng.randint(0, 3)):
                step([self.decode_pass(i + 1)])
        # cut traces: an extra pass at the start and/or the end, cut inside
        if c['cut'] in ('start', 'both'):
            first = steps[0]['passes'][0]
            steps.insert(0, {'passes': [self.decode_pass(0) if first['stage'] != 'prefill' or rng.random() < 0.5 else self.prefill_pass()], 'cut': 'start'})
        if c['cut'] in ('end', 'both'):
            steps.append({'passes': [self.decode_pass(nd + 2)], 'cut': 'end'})
        # speculative decoding: draft forwards before each decode (verify) pass
        uid = 0
        for si, s in enumerate(steps):
            s['idx'] = si
            newp = []
            for P in s['passes']:
                if self.G.draft and P['stage'] == 'decode' and not P['draft']:
                    bs = P['nreq']
                    for di in range(self.G.draft['k']):
                        D = self.new_pass('decode', bs, bs, P['ctx'] + di, S=bs, draft=True, sq=[1] * bs, sk=P['sk'])
                        D['layers'] = self.G.draft['layers']
                        D['kinds'] = ['attn+mlp'] * D['layers']
                        D['draft_index'] = di
                        newp.append(D)
                P['layers'] = self.m['layers'] if not P['draft'] else P['layers']
                P['kinds'] = self.m['kinds'] if not P['draft'] else P['kinds']
                newp.append(P)
            s['passes'] = newp
            for P in newp:
                P['uid'] = uid
                P['step'] = si
                uid += 1
        self.plan = steps
        return steps

    # ---------------- annotations
    def ann_names(self, s, counter):
        c = self.c
        a = c['annotation']
        tgt = [P for P in s['passes'] if not P['draft']]
        if a == 'none' or not tgt:
            return []
        P = tgt[-1]
        if a == 'profilerstep':
            return ['ProfilerStep#%d' % counter]
        if a in ('sglang', 'both'):
            if P['stage'] == 'decode':
                inner = 'step[DECODE bs=%d]' % P['nreq']
            else:
                inner = 'step[EXTEND bs=%d toks=%d]' % (P['nreq'], P['T'])
            if a == 'both':
                return [self.vllm_name(P, 'new'), inner]
            return [inner]
        return [self.vllm_name(P, c['vllm_ann_style'])]

    def vllm_name(self, P, style):
        if P['stage'] == 'prefill':
            csq, csk = P['sq'], P['sk']
            gsq, gsk = [], []
        elif P['stage'] == 'decode':
            csq, csk = [], []
            gsq, gsk = P['sq'], P['sk']
        else:
            csq, csk = P['sq'], P['sk']
            gsq, gsk = P['dsq'], P['dsk']
        np_, nd = len(csq), len(gsq)
        if style == 'old':
            cpart = '%d_%d' % (sum(csq), sum(a * b for a, b in zip(csq, csk))) if np_ else '0'
            return 'execute_context_%d(%s)_generation_%d(%d)' % (np_, cpart, nd, sum(gsq))

        def part(sq, sk):
            return 'sq%dsk%dsqsq%dsqsk%d' % (sum(sq), sum(sk), sum(x * x for x in sq), sum(a * b for a, b in zip(sq, sk)))
        return 'execute_%d_context_%d(%s)_generation_%d(%s)' % (sum(csq) + sum(gsq), np_, part(csq, csk), nd, part(gsq, gsk))

    # ---------------- pass construction
    def pass_mode(self, P):
        launch = self.c['launch']
        if launch in ('eager', 'compiled', 'piecewise'):
            return launch
        if P['stage'] == 'decode':
            return 'graph'
        return 'piecewise' if self.G.fw == 'vllm' else 'eager'

    def build_regions(self, P, rng):
        B = Builder(self.G, P, rng, draft=P['draft'])
        fwd = []
        for u in B.embedding():
            u['_tag'] = (P['uid'], 'embed')
            fwd.append(u)
        extra_p = self.c['extra_p']
        for li, kind in enumerate(P['kinds']):
            lu = B.layer(li, kind)
            if rng.random() < extra_p and not P['draft']:
                pos = rng.randint(1, max(1, len(lu) - 1))
                lu.insert(pos, B.sprinkle(li))
            for u in lu:
                u['_tag'] = (P['uid'], li)
            fwd.extend(lu)
        for u in B.final_norm():
            u['_tag'] = (P['uid'], 'final_norm')
            fwd.append(u)
        head = B.head()
        for u in head:
            u['_tag'] = (P['uid'], 'head')
        sample = B.sample()
        for u in sample:
            u['_tag'] = (P['uid'], 'sample')
        return B, fwd, head, sample

    def inject_idle(self, P, fwd, rng):
        """CPU launch stalls and host syncs inside a pass."""
        if not self.c['idle_in_pass'] or P['draft']:
            return fwd
        L = P['layers']
        n = rng.randint(1, 3)
        for _ in range(n):
            li = rng.randint(0, L - 1)
            idxs = [i for i, u in enumerate(fwd) if u.get('layer') == li]
            if not idxs:
                continue
            pos = rng.choice(idxs[1:] or idxs)
            if rng.random() < 0.65 or self.G.fw == 'hf' or self.pass_mode(P) in ('graph', 'piecewise'):
                st = unit(None, [], role='stall', stall=math.exp(rng.uniform(math.log(60), math.log(5000))))
            else:
                st = unit(OP('aten::item', [[]], [OP('aten::_local_scalar_dense', [[]], k=True)]), [MEMCPY('DtoH', 4)], role='hostsync', sync='stream')
            st['_tag'] = (P['uid'], li)
            st['layer'] = li
            fwd.insert(pos, st)
        P['_idle'] = True
        return fwd

    def render_pass(self, sim, P, fwd, head, mode):
        G = self.G
        head_in_graph = mode == 'graph' and G.fw in ('sglang', 'trtllm')
        if mode in ('compiled', 'piecewise', 'graph') and G.fw == 'vllm' and (G.inductor_fuse or mode == 'compiled'):
            fwd = inductor_transform(G, fwd, eager_ops=(mode == 'compiled'), fuse=G.inductor_fuse)
            P['_fused'] = G.inductor_fuse
        if mode == 'eager':
            for u in fwd + head:
                render_eager(sim, u)
            return
        if mode == 'compiled':
            sim.leaf('TorchDynamo Cache Lookup')
            sim.op_begin('Torch-Compiled Region: 0/1')
            sim.leaf('Pregraph bytecode')
            sim.leaf('AOTDispatcher Runtime Wrapper Prologue')
            pi = 0
            pcs = split_pieces(fwd)
            npc = sum(1 for kind, _ in pcs if kind == 'piece')
            for kind, x in pcs:
                if kind == 'piece':
                    hsh = G.hash_pool[0 if pi == 0 else (2 if pi == npc - 1 else 1)]
                    a = sim.ann_begin('## Call CompiledFxGraph %s ##' % hsh, kind='compiled')
                    for u in x:
                        render_eager(sim, u)
                    sim.ann_end(a)
                    pi += 1
                else:
                    render_eager(sim, x)
            sim.op_end()
            for u in head:
                render_eager(sim, u)
            return
        if mode == 'piecewise':
            sim.leaf('Pregraph bytecode')
            for kind, x in split_pieces(fwd):
                if kind == 'piece':
                    sim.other_rt('cudaStreamIsCapturing')
                    sim.graph_launch(x)
                else:
                    render_eager(sim, x)
            for u in head:
                render_eager(sim, u)
            return
        # full graph
        sim.other_rt('cudaStreamIsCapturing')
        body = [u for u in fwd if not u.get('stall') and not u.get('sync')]
        if head_in_graph:
            body += [u for u in head if not u.get('nccl_ann')]
            sim.graph_launch(body)
            for u in head:
                if u.get('nccl_ann'):
                    render_eager(sim, u)
        else:
            sim.graph_launch(body)
            for u in head:
                render_eager(sim, u)

    # ---------------- run everything
    def _unit_cost(self, units, mode):
        n = 0.0
        for u in units:
            nk = len(u['ks']) + len(u.get('attn_ks', []))
            no = count_ops(u['op']) if u['op'] is not None else 0
            if mode in ('graph', 'piecewise') and not u.get('eager'):
                n += nk * 2.1
            else:
                n += nk * 4 + no + (3 if u.get('sync') else 0)
        return n

    def pass_cost(self, P):
        """(fixed events, {kind: events per layer}) for a pass, cached by shape."""
        key = (P['stage'], P['draft'], min(P['T'], 8192), self.pass_mode(P))
        if key in self._est_cache:
            return self._est_cache[key]
        rng = random.Random(self.G.seed ^ 0x5A5A)
        Q = dict(P)
        Q['uid'] = -1
        B = Builder(self.G, Q, rng, draft=P['draft'])
        mode = self.pass_mode(P)
        fixed = self._unit_cost(B.embedding() + B.final_norm() + B.head() + B.sample() + B.prep(), mode) + 80
        per = {}
        for kind in sorted(set(P['kinds'])):
            li = 1 if len(P['kinds']) > 1 else 0
            per[kind] = self._unit_cost(B.layer(li, kind), mode) * (1.0 + self.c['extra_p'])
        self._est_cache[key] = (fixed, per)
        return fixed, per

    def estimate(self, layers=None):
        """rough event count of the plan, to keep traces modest."""
        tot = 0.0
        for s in self.plan:
            for P in s['passes']:
                fixed, per = self.pass_cost(P)
                kinds = P['kinds']
                if layers is not None and not P['draft']:
                    kinds = draw_model_kinds(self.c, dict(self.m, layers=layers))
                tot += fixed + sum(per.get(k, max(per.values())) for k in kinds)
        return tot

    def n_target_steps(self):
        return sum(1 for s in self.plan if not s.get('cut'))

    def run(self):
        c, G = self.c, self.G
        budget = wchoice(random.Random(G.seed * 5 + 2), [(2500, 0.2), (5000, 0.35), (7500, 0.45)])
        if G.fw == 'hf':
            budget = int(budget * 1.6)
        self._est_cache = {}
        self.rng = random.Random(G.seed * 7 + 3)
        self.make_plan()
        est = self.estimate()
        while est > budget and self.n_target_steps() > 3 and self._drop_step():
            est = self.estimate()
        # deep models: rather a bigger trace than a shallower model
        budget = max(budget, 11000 if G.fw != 'hf' else 14000, 16000 if self.m['layers'] >= 65 else 0)
        while est > budget and self.n_target_steps() > 2 and self._drop_step():
            est = self.estimate()
        if est > budget:
            L = self.m['layers']
            while L > 2 and self.estimate(L) > budget:
                L = max(2, int(L * 0.85))
            if L != self.m['layers']:
                self.m['layers'] = L
                self.m['kinds'] = draw_model_kinds(c, self.m)
                for s in self.plan:
                    for P in s['passes']:
                        if not P['draft']:
                            P['layers'] = L
                            P['kinds'] = self.m['kinds']
            est = self.estimate()
        while est > budget and self._drop_step():
            est = self.estimate()
        self.debug['estimate'] = est
        sim = Sim(G)
        self.sim = sim
        rng = random.Random(G.seed * 131 + 5)
        counter = rng.randint(2, 40)
        prev_end = None
        step_windows = []
        sim.t = rng.uniform(50, 800)
        for s in self.plan:
            sim.step = s['idx']
            names = self.ann_names(s, counter)
            counter += 1
            t_step0 = sim.t
            anns = [sim.ann_begin(nm) for nm in names]
            for a in anns:
                a['_stepann'] = True
            if c['annotation'] == 'profilerstep' and s['idx'] > 0:
                sim.t += self.gap(rng)
            # python-side preparation
            sim.t += rng.uniform(30, 400) * sim.cspeed
            tgt = [P for P in s['passes'] if not P['draft']]
            B0 = Builder(G, tgt[0] if tgt else s['passes'][0], rng)
            for u in B0.prep():
                u['_tag'] = (s['passes'][0]['uid'], 'prep')
                render_eager(sim, u)
            outside = []
            drafts_in_graph = []
            for P in s['passes']:
                B, fwd, head, sample = self.build_regions(P, rng)
                fwd = self.inject_idle(P, fwd, rng)
                mode = self.pass_mode(P)
                P['_mode'] = mode
                if P['draft'] and mode == 'graph' and G.draft['one_graph']:
                    drafts_in_graph.append((P, fwd, head, sample))
                    if P['draft_index'] == G.draft['k'] - 1:
                        body = []
                        for (_, f, h, smp) in drafts_in_graph:
                            body += [u for u in f + h + smp if not u.get('nccl_ann') and not u.get('sync')]
                        sim.other_rt('cudaStreamIsCapturing')
                        sim.graph_launch(body)
                        drafts_in_graph = []
                    continue
                self.render_pass(sim, P, fwd, head, mode)
                if P['draft']:
                    for u in sample:
                        render_eager(sim, u)
                    continue
                if G.draft and P['stage'] == 'decode':
                    k = {'n': KX['rejection_greedy'] if G.fw != 'sglang' else KX['sgl_verify'], 'g': [P['nreq'], 1, 1], 'b': [128, 1, 1], 'd': 4.0,
                         'api': 'trix' if G.fw != 'sglang' else 'rt', 'st': 'main'}
                    sample = sample + [unit(None, [k], role='verify', _tag=(P['uid'], 'sample'))]
                if G.sampler_outside and anns:
                    outside.extend(sample)
                else:
                    for u in sample:
                        render_eager(sim, u)
            # output tokens back to the host
            last = s['passes'][-1]
            out_u = unit(OP('aten::to', [[last['S']], [], [], [], []], [OP('aten::_to_copy', [[last['S']], [], [], [], [], [], []], [OP('aten::copy_', [[last['S']], [last['S']], []], k=True)])]),
                         [MEMCPY('DtoH', last['S'] * 8)], role='output', _tag=(last['uid'], 'output'))
            if G.fw != 'hf' and not outside:
                render_eager(sim, out_u)
            if not c['async_steps'] and G.fw != 'hf' and not outside:
                sim.other_rt('cudaEventRecord')
                sim.sync('event' if rng.random() < 0.6 else 'stream')
            for a in reversed(anns):
                sim.ann_end(a)
            if outside:
                for u in outside:
                    render_eager(sim, u)
                render_eager(sim, out_u)
                if not c['async_steps']:
                    sim.sync('stream')
            step_end_gpu = max(sim.gq.values())
            if c['async_steps']:
                sim.other_rt('cudaEventRecord')
                if prev_end is not None:
                    sim.sync('event', target=prev_end)
                prev_end = step_end_gpu
            step_windows.append({'step': s['idx'], 'anns': anns, 'cpu_start': t_step0, 'cpu_end': sim.t})
            if c['annotation'] != 'profilerstep':
                sim.t += self.gap(rng)
        if c['async_steps'] or True:
            sim.sync('device')
        self.step_windows = step_windows
        return sim

    def gap(self, rng):
        c = self.c
        if c['async_steps']:
            g = rng.uniform(40, 400)
        else:
            g = rng.uniform(150, 2500)
        if c['long_idle'] and rng.random() < 0.35:
            g += rng.uniform(4000, 60000)
        return g * self.sim.cspeed if hasattr(self, 'sim') else g

    def _drop_step(self):
        # drop the last decode step that is not a cut step; keep at least 2 steps
        steps = self.plan
        tgt_steps = [s for s in steps if not s.get('cut')]
        if len(tgt_steps) <= 1:
            return False
        for i in range(len(steps) - 1, -1, -1):
            s = steps[i]
            if s.get('cut'):
                continue
            stages = set(P['stage'] for P in s['passes'] if not P['draft'])
            if stages == {'decode'} or len(tgt_steps) > 2:
                del steps[i]
                for j, s2 in enumerate(steps):
                    s2['idx'] = j
                    for P in s2['passes']:
                        P['step'] = j
                return True
        return False


def count_ops(node):
    return 1 + sum(count_ops(ch) for ch in node['c'])


def draw_model_kinds(c, m):
    kinds = []
    for i in range(m['layers']):
        if c['hybrid'] != 'none':
            mixer = 'attn' if (i % (c['ratio'] + 1)) == c['ratio'] else c['hybrid']
        elif c['attn'] == 'mla':
            mixer = 'mla'
        elif c['attn'] == 'swa':
            r = c['swa_local_per_global']
            mixer = 'global' if (i % (r + 1)) == r else 'sliding'
        else:
            mixer = 'attn'
        if c['mlp'] == 'dense':
            ffn = 'mlp'
        elif c['mlp'] == 'moe':
            ffn = 'moe'
        elif c['mlp'] == 'alt':
            ffn = 'moe' if i % 2 == 1 else 'mlp'
        else:
            ffn = 'mlp' if i < c['first_k_dense'] else 'moe'
        kinds.append(mixer + '+' + ffn)
    return kinds


# --------------------------------------------------------------------------
# finalize: cut, truth, event order, names
# --------------------------------------------------------------------------
PY_FRAMES = {
    'vllm': ['vllm/v1/engine/core.py(%d): step', 'vllm/v1/executor/abstract.py(%d): execute_model',
             'vllm/v1/worker/gpu_worker.py(%d): execute_model', 'vllm/v1/worker/gpu_model_runner.py(%d): execute_model',
             'torch/nn/modules/module.py(1773): _wrapped_call_impl', 'torch/nn/modules/module.py(1784): _call_impl'],
    'sglang': ['sglang/srt/managers/scheduler.py(%d): event_loop_overlap', 'sglang/srt/managers/scheduler.py(%d): run_batch',
               'sglang/srt/managers/tp_worker.py(%d): forward_batch_generation', 'sglang/srt/model_executor/model_runner.py(%d): forward',
               'torch/utils/_contextlib.py(120): decorate_context'],
    'hf': ['transformers/generation/utils.py(%d): generate', 'transformers/generation/utils.py(%d): _sample',
           'torch/nn/modules/module.py(1773): _wrapped_call_impl', 'torch/nn/modules/module.py(1784): _call_impl',
           'transformers/utils/generic.py(%d): wrapper'],
    'trtllm': ['tensorrt_llm/_torch/pyexecutor/py_executor.py(%d): _executor_loop', 'tensorrt_llm/_torch/pyexecutor/py_executor.py(%d): _forward_step',
               'tensorrt_llm/_torch/pyexecutor/model_engine.py(%d): forward', 'torch/utils/_contextlib.py(120): decorate_context'],
}
PROC_NAME = {'vllm': 'VLLM::EngineCore', 'sglang': 'sglang::scheduler', 'hf': 'python3', 'trtllm': 'python3'}


def random_name(rng):
    n = rng.choice([6, 8, 10, 12, 16, 20, 24, 32, 40, 56])
    first = rng.choice('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_')
    alph = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_'
    return first + ''.join(rng.choice(alph) for _ in range(n - 1))


def finalize(tr):
    G, c, sim = tr.G, tr.c, tr.sim
    rng = random.Random(G.seed * 17 + 11)
    plan = tr.plan
    passes = [P for s in plan for P in s['passes']]
    kern_by_pass = {}
    for k in sim.kern:
        kern_by_pass.setdefault(k['_tag'][0], []).append(k)

    def layer_start(P, li):
        ks = [k for k in kern_by_pass.get(P['uid'], []) if k['_tag'][1] == li]
        return min(k['ts'] for k in ks) if ks else None

    lo, hi = -1e30, 1e30
    cut_info = {}
    if c['cut'] in ('start', 'both'):
        P = [Q for Q in plan[0]['passes'] if not Q['draft']][0]
        li = rng.randint(1, P['layers'] - 1) if P['layers'] > 1 else 1
        ts = layer_start(P, li)
        if ts is not None:
            lo = ts - 0.05
            cut_info['start'] = {'stage': P['stage'], 'cut_at_layer': li, 'layers_after_cut': P['layers'] - li, 'uid': P['uid']}
    if c['cut'] in ('end', 'both'):
        P = [Q for Q in plan[-1]['passes'] if not Q['draft']][-1]
        li = rng.randint(1, P['layers'] - 1) if P['layers'] > 1 else 1
        ts = layer_start(P, li)
        if ts is not None:
            hi = ts
            cut_info['end'] = {'stage': P['stage'], 'cut_at_layer': li, 'layers_before_cut': li, 'uid': P['uid']}

    # ---- apply the capture window
    cpu = [e for e in sim.cpu if e['ts'] >= lo and e['ts'] + e['dur'] <= hi]
    kept_ext = set(e['args']['External id'] for e in cpu)
    recs = []
    orphans = 0
    kept_k = set()
    for r in sim.recs:
        rt = r['rt']
        ks = [k for k in r['ks'] if lo <= k['ts'] < hi]
        rt_ok = lo <= rt['ts'] < hi
        if rt_ok and rt['ts'] + rt['dur'] > hi:
            rt['dur'] = max(0.5, hi - rt['ts'])
        if not rt_ok:
            for k in ks:
                k['args'].pop('External id', None)
                k['_orphan'] = True
                orphans += 1
            rt = None
        recs.append({'rt': rt, 'ks': ks, 'kind': r['kind']})
        for k in ks:
            kept_k.add(id(k))
    for r in recs:
        for e in ([r['rt']] if r['rt'] else []) + r['ks']:
            x = e['args'].get('External id')
            if x is not None and x not in kept_ext:
                e['args'].pop('External id', None)
    if orphans:
        cut_info.setdefault('start', {})['orphan_kernels'] = orphans

    # ---- truth
    tpasses, dpasses = [], []
    stage_list = []
    n_layers = tr.m['layers']
    ann_of_step = {}
    kept_ann_ids = set(id(e) for e in cpu)
    for w in tr.step_windows:
        names = [a['name'] for a in w['anns'] if id(a) in kept_ann_ids]
        ann_of_step[w['step']] = names[0] if names else None
    idle_real = False
    for s in plan:
        for P in s['passes']:
            ks = kern_by_pass.get(P['uid'], [])
            complete = bool(ks) and all(id(k) in kept_k for k in ks)
            if not complete:
                continue
            if P['draft']:
                dpasses.append({'step': P['step'], 'index': P['draft_index'], 'layers': P['layers'], 'tokens': P['T']})
                continue
            ent = {'stage': P['stage'], 'layers': P['layers'], 'tokens': P['T'], 'annotation': ann_of_step.get(P['step'])}
            if P['stage'] == 'mixed':
                ent['prefill_tokens'] = P['prefill_tokens']
                ent['prefill_requests'] = P['prefill_requests']
                ent['decode_tokens'] = P['decode_tokens']
            if G.draft and P['stage'] == 'decode':
                ent['draft_passes'] = sum(1 for Q in s['passes'] if Q['draft'] and all(id(k) in kept_k for k in kern_by_pass.get(Q['uid'], [])))
                ent['draft_layers'] = G.draft['layers']
                ent['spec_tokens_per_request'] = P['spec_k'] + 1
            ent['mode'] = P.get('_mode')
            tpasses.append(ent)
            stage_list.append(P['stage'])
            # realized idle inside the pass (main stream gap >= 50 us)
            main = sorted((k for k in ks if k['tid'] == sim.sid['main']), key=lambda k: k['ts'])
            for a, b in zip(main, main[1:]):
                if b['ts'] - (a['ts'] + a['dur']) >= 50.0 and isinstance(a['_tag'][1], int) and isinstance(b['_tag'][1], int):
                    if P.get('_idle'):
                        idle_real = True
                        break
    # async realized: a step's CPU window starts before the previous step's GPU work ends
    async_real = False
    if c['async_steps']:
        gpu_end = {}
        pbu = passes_by_uid(plan)
        for k in sim.kern:
            s_i = pbu[k['_tag'][0]]['step']
            gpu_end[s_i] = max(gpu_end.get(s_i, 0.0), k['ts'] + k['dur'])
        for a, b in zip(tr.step_windows, tr.step_windows[1:]):
            if b['cpu_start'] < gpu_end.get(a['step'], 0.0):
                async_real = True
                break

    # ---- classes
    cls = []
    mlp = c['mlp']
    cls.append({'dense': 'dense', 'moe': 'moe', 'alt': 'moe-alternating', 'firstk': 'first-k-dense'}[mlp])
    if c['shared_expert']:
        cls.append('shared-expert')
    if c['shared_expert_side_stream']:
        cls.append('shared-expert-side-stream')
    if c['hf_moe_loop']:
        cls.append('hf-moe-loop')
    if c['attn'] == 'mla':
        cls.append('mla')
    if c['attn'] == 'swa':
        cls.append('swa-alternation')
    if c['attn'] == 'mha':
        cls.append('mha')
    if c['hybrid'] != 'none':
        cls.append('hybrid-' + c['hybrid'])
    if c['qknorm']:
        cls.append('qk-norm')
    if c['splitk'] and any(P['T'] <= 64 for P in passes):
        cls.append('split-k')
    cls.append('tp1' if G.tp == 1 else 'tp>1')
    if G.tp > 1:
        cls.append('tp-' + c['tp_style'])
    modes = set(P.get('_mode') for P in passes if not P['draft'])
    for md, tag in (('eager', 'eager'), ('graph', 'graph-replay'), ('piecewise', 'piecewise'), ('compiled', 'compiled')):
        if md in modes:
            cls.append(tag)
    if any(P.get('_fused') for P in passes):
        cls.append('triton-fusion')
    n_ann = sum(1 for e in cpu if e['cat'] == 'user_annotation' and e.get('_stepann'))
    cls.append('annotated' if c['annotation'] != 'none' else 'not-annotated')
    if c['annotation'] != 'none':
        cls.append('ann-' + c['annotation'])
        if c['gpu_annotation']:
            cls.append('gpu-annotation')
        if c['ann_id_after']:
            cls.append('ann-id-after')
    cls.append('platform-' + G.plat)
    cls.append('gpu-' + G.gpu)
    cls.append('fw-' + G.fw)
    st = set(stage_list)
    if st == {'prefill', 'decode'}:
        cls.append('prefill+decode')
    elif st == {'decode'}:
        cls.append('decode-only')
    elif st == {'prefill'}:
        cls.append('prefill-only')
    elif st == {'mixed'}:
        cls.append('mixed-only')
    elif st:
        cls.append('stages-' + '+'.join(sorted(st)))
    if 'mixed' in st:
        cls.append('mixed-batch')
    if G.draft:
        cls.append('spec-decode')
    if async_real:
        cls.append('async-steps')
    if c['idle_in_pass'] and idle_real:
        cls.append('idle-in-pass')
    if c['long_idle']:
        cls.append('long-idle')
    if cut_info:
        cls.append('cut-passes')
    if c['plan'] == 'chunked':
        cls.append('chunked-prefill' if c['chunk_style'] != 'long' else 'long-prefill')
        if c['chunk_style'] == 'one-step':
            cls.append('multi-pass-step')
    if not c['record_shapes']:
        cls.append('no-shapes')
    L = n_layers
    cls.append('depth-2-8' if L <= 8 else 'depth-9-32' if L <= 32 else 'depth-33-64' if L <= 64 else 'depth-65-96')
    if c['int_ts']:
        cls.append('int-ts')
    if c['meta_first']:
        cls.append('meta-first')

    cfg = dict(c)
    cfg.update({'gpu': G.gpu, 'layers': L, 'hidden': tr.m['hidden'], 'heads': tr.m['heads'], 'kv_heads': tr.m['kv_heads'],
                'head_dim': tr.m['head_dim'], 'intermediate': tr.m['inter'], 'vocab': tr.m['vocab'], 'experts': tr.m['experts'],
                'topk': tr.m['topk'], 'moe_intermediate': tr.m['moe_inter'], 'moe_style': G.moe_style, 'attn_lib': G.attn_lib,
                'inductor_fuse': G.inductor_fuse, 'sampler_outside_annotation': G.sampler_outside,
                'main_stream': G.stream_main, 'side_stream': G.stream_side})
    truth = {'names': G.names_mode, 'generator': GEN_VERSION, 'seed': G.seed,
             'complete_passes': len(tpasses), 'stages': stage_list, 'layers_per_pass': L,
             'passes': tpasses, 'layer_kinds': tr.m['kinds'], 'classes': cls, 'config': cfg,
             'v2': {'async_steps': bool(c['async_steps']), 'async_realized': async_real, 'cut': c['cut'],
                    'spec_decode': bool(G.draft), 'mixed': 'mixed' in st, 'chunked': c['chunk_style'],
                    'idle_in_pass': bool(c['idle_in_pass']), 'idle_realized': idle_real, 'multirank': False}}
    if G.draft:
        truth['draft'] = {'layers': G.draft['layers'], 'kinds': ['attn+mlp'] * G.draft['layers'],
                          'per_decode_step': G.draft['k'], 'own_gemm_names': G.draft['own_gemm_names'],
                          'one_graph': G.draft['one_graph']}
        truth['draft_passes'] = dpasses
    if cut_info:
        for k2 in ('start', 'end'):
            if k2 in cut_info:
                cut_info[k2].pop('uid', None)
        truth['cut_passes'] = cut_info

    doc, dbg = emit(tr, cpu, recs, lo, hi, rng)
    truth['events'] = len(doc['traceEvents'])
    dbg['orphans'] = orphans
    return doc, truth, dbg


def passes_by_uid(plan):
    return dict((P['uid'], P) for s in plan for P in s['passes'])


def emit(tr, cpu, recs, lo, hi, rng):
    G, c, sim = tr.G, tr.c, tr.sim
    int_ts = c['int_ts']
    if int_ts:
        base = 1_720_000_000_000_000 + rng.randint(0, 10 ** 13)
    else:
        base = rng.uniform(1.0e12, 8.5e12)

    def T(t):
        if int_ts:
            return int(round(base + t))
        return round(base + t, 3)

    def D(d):
        if int_ts:
            return int(round(d))
        return round(max(0.0, d), 3)

    def fin(e):
        o = {'ph': e['ph'], 'cat': e['cat'], 'name': e['name'], 'pid': e['pid'], 'tid': e['tid'],
             'ts': T(e['ts']), 'dur': D(e['dur']), 'args': e['args']}
        return o

    out_cpu = []
    cpu_sorted = sorted(cpu, key=lambda e: (e['ts'], -e['dur']))
    for i, e in enumerate(cpu_sorted):
        e['args']['Ev Idx'] = i
        out_cpu.append(fin(e))
    # python stacks per step
    out_py = []
    if c['python_stack']:
        pid_ = 1
        frames = PY_FRAMES[G.fw]
        for w in tr.step_windows:
            t0, t1 = w['cpu_start'] - 5.0, w['cpu_end'] + 2.0
            if t0 < lo or t1 > hi:
                continue
            parent = None
            for d, fr in enumerate(frames):
                name = fr % (100 + h32(fr) % 2500) if '%d' in fr else fr
                a, b = t0 + d * 1.5, t1 - d * 1.0
                out_py.append({'ph': 'X', 'cat': 'python_function', 'name': name, 'pid': sim.pid, 'tid': sim.pid,
                               'ts': T(a), 'dur': D(b - a), 'args': {'Python parent id': parent, 'Python id': pid_, 'Python thread': 0}})
                parent = pid_
                pid_ += 1
    # gpu block
    gpid = G.gpu_pid
    out_gpu = []

    def flow_s(rt, corr):
        return {'ph': 's', 'id': corr, 'pid': sim.pid, 'tid': sim.pid, 'ts': T(rt['ts']), 'cat': 'ac2g', 'name': 'ac2g'}

    def flow_f(k, corr):
        return {'ph': 'f', 'id': corr, 'pid': k['pid'], 'tid': k['tid'], 'ts': T(k['ts']), 'cat': 'ac2g', 'name': 'ac2g', 'bp': 'e'}

    all_gpu = []
    if not G.amd:
        over_at = set(rng.randint(0, max(1, len(recs) - 1)) for _ in range(rng.randint(0, 3)))
        for i, r in enumerate(recs):
            if i in over_at:
                tt = r['rt']['ts'] if r['rt'] else (r['ks'][0]['ts'] if r['ks'] else None)
                if tt is not None:
                    out_gpu.append({'ph': 'X', 'cat': 'overhead', 'name': 'Activity Buffer Request', 'pid': -1, 'tid': 0,
                                    'ts': T(tt), 'dur': D(rng.uniform(50, 600))})
            for k in r['ks']:
                out_gpu.append(fin(k))
                all_gpu.append(k)
                if r['rt'] is not None:
                    out_gpu.append(flow_f(k, k['args']['correlation']))
            if r['rt'] is not None:
                out_gpu.append(fin(r['rt']))
                if r['kind'] in ('launch', 'graph') and r['ks']:
                    out_gpu.append(flow_s(r['rt'], r['rt']['args']['correlation']))
    else:
        for r in recs:
            if r['rt'] is not None:
                out_gpu.append(fin(r['rt']))
                if r['kind'] in ('launch', 'graph') and r['ks']:
                    out_gpu.append(flow_s(r['rt'], r['rt']['args']['correlation']))
                elif rng.random() < 0.5:
                    out_gpu.append(dict(flow_s(r['rt'], r['rt']['args']['correlation']), ph='f', bp='e'))
        ks = [(k, r['rt'] is not None) for r in recs for k in r['ks']]
        ks.sort(key=lambda x: (x[0]['args']['correlation'], x[0]['ts']))
        for k, linked in ks:
            out_gpu.append(fin(k))
            all_gpu.append(k)
            if linked:
                out_gpu.append(flow_f(k, k['args']['correlation']))
    # gpu user annotations
    out_gann = []
    if c['gpu_annotation']:
        launches = sorted(((r['rt']['ts'], k) for r in recs if r['rt'] is not None for k in r['ks']), key=lambda x: x[0])
        lts = [x[0] for x in launches]
        import bisect
        for e in cpu_sorted:
            if e['cat'] != 'user_annotation':
                continue
            a = bisect.bisect_left(lts, e['ts'])
            b = bisect.bisect_right(lts, e['ts'] + e['dur'])
            ks = [launches[i][1] for i in range(a, b)]
            if not ks:
                continue
            by_stream = {}
            for k in ks:
                by_stream.setdefault(k['tid'], []).append(k)
            for stid, kk in sorted(by_stream.items()):
                s0 = min(k['ts'] for k in kk)
                s1 = max(k['ts'] + k['dur'] for k in kk)
                out_gann.append({'ph': 'X', 'cat': 'gpu_user_annotation', 'name': e['name'], 'pid': gpid, 'tid': stid,
                                 'ts': T(s0), 'dur': D(s1 - s0), 'args': {'External id': e['args']['External id']}})
    # metadata
    t_first = min([e['ts'] for e in cpu] + [k['ts'] for k in all_gpu] + [0.0])
    t_last = max([e['ts'] + e['dur'] for e in cpu] + [k['ts'] + k['dur'] for k in all_gpu] + [1.0])
    if lo > -1e29:
        t_first = min(t_first, lo)
    pname = PROC_NAME[G.fw]
    meta = [
        {'name': 'process_name', 'ph': 'M', 'ts': T(t_first), 'pid': sim.pid, 'tid': 0, 'args': {'name': pname}},
        {'name': 'process_labels', 'ph': 'M', 'ts': T(t_first), 'pid': sim.pid, 'tid': 0, 'args': {'labels': 'CPU'}},
        {'name': 'process_sort_index', 'ph': 'M', 'ts': T(t_first), 'pid': sim.pid, 'tid': 0, 'args': {'sort_index': sim.pid}}]
    ngpu = 8 if G.tp > 1 or rng.random() < 0.5 else max(1, G.gpu_pid + 1)
    ngpu = max(ngpu, G.gpu_pid + 1)
    for g in range(ngpu):
        meta += [{'name': 'process_name', 'ph': 'M', 'ts': T(t_first), 'pid': g, 'tid': 0, 'args': {'name': pname}},
                 {'name': 'process_labels', 'ph': 'M', 'ts': T(t_first), 'pid': g, 'tid': 0, 'args': {'labels': 'GPU %d' % g}},
                 {'name': 'process_sort_index', 'ph': 'M', 'ts': T(t_first), 'pid': g, 'tid': 0, 'args': {'sort_index': 5000000 + g}}]
    streams = sorted(set(k['tid'] for k in all_gpu))
    for st in streams:
        meta += [{'name': 'thread_name', 'ph': 'M', 'ts': T(t_first), 'pid': gpid, 'tid': st, 'args': {'name': 'stream %d ' % st}},
                 {'name': 'thread_sort_index', 'ph': 'M', 'ts': T(t_first), 'pid': gpid, 'tid': st, 'args': {'sort_index': st}}]
    tn = 'thread %d (%s)' % (sim.pid, pname[:15])
    meta += [{'name': 'thread_name', 'ph': 'M', 'ts': T(t_first), 'pid': sim.pid, 'tid': sim.pid, 'args': {'name': tn}},
             {'name': 'thread_sort_index', 'ph': 'M', 'ts': T(t_first), 'pid': sim.pid, 'tid': sim.pid, 'args': {'sort_index': sim.pid}}]
    tail = [{'ph': 'X', 'cat': 'Trace', 'name': 'PyTorch Profiler (0)', 'pid': 'Spans', 'tid': 'PyTorch Profiler',
             'ts': T(t_first), 'dur': D(t_last - t_first), 'args': {'Op count': 0}},
            {'name': 'process_sort_index', 'ph': 'M', 'ts': T(t_first), 'pid': 'Spans', 'tid': 0, 'args': {'sort_index': 536870912}},
            {'name': 'Iteration Start: PyTorch Profiler', 'ph': 'i', 's': 'g', 'pid': 'Traces', 'tid': 'Trace PyTorch Profiler', 'ts': T(t_first)},
            {'name': 'Record Window End', 'ph': 'i', 's': 'g', 'pid': '', 'tid': '', 'ts': T(t_last + 100.0)}]
    if c['m_events_first']:
        events = meta + out_cpu + out_py + out_gpu + out_gann + tail
    else:
        events = out_cpu + out_py + out_gpu + out_gann + meta + tail

    # ---- names=random: every distinct kernel name -> a random string
    if G.names_mode == 'random':
        nrng = random.Random(G.seed * 977 + 1)
        mp = {}
        for e in events:
            if e.get('cat') == 'kernel':
                n = e['name']
                if n not in mp:
                    while True:
                        r = random_name(nrng)
                        if r not in mp.values():
                            break
                    mp[n] = r
        for e in events:
            if e.get('cat') == 'kernel':
                e['name'] = mp[e['name']]
            a = e.get('args')
            if a:
                if 'kernel' in a and a['kernel'] in mp:
                    a['kernel'] = mp[a['kernel']]
                if 'kernel_name' in a and a['kernel_name'] in mp:
                    a['kernel_name'] = mp[a['kernel_name']]

    # ---- document
    props = dict(G.props)
    dev = []
    blank_name = G.amd and rng.random() < 0.2
    nd = 8 if G.tp > 1 else 1
    for i in range(max(nd, G.gpu_pid + 1 if G.amd else 1)):
        d = {'id': i}
        d.update(props)
        d.update({'maxThreadsPerBlock': 1024, 'maxThreadsPerMultiprocessor': 2048,
                  'warpSize': 64 if G.amd else 32, 'sharedMemPerBlock': 65536 if G.amd else 49152, 'numSms': G.sms})
        if G.amd:
            d['maxSharedMemoryPerMultiProcessor'] = 65536
            if blank_name:
                d['name'] = ''
        else:
            d['regsPerMultiprocessor'] = 65536
        dev.append(d)
    dist = None
    if G.tp > 1 or rng.random() < 0.5:
        dist = {'backend': 'nccl', 'rank': G.rank, 'world_size': G.tp, 'pg_count': 2 if G.tp > 1 else 1,
                'pg_config': [{'pg_name': '0', 'pg_desc': 'default_pg', 'backend_config': 'cuda:nccl', 'pg_size': G.tp, 'ranks': list(range(G.tp))}],
                'nccl_version': '2.27.3' if not G.amd else '2.22.3'}
    trace_id = '%032X' % rng.getrandbits(128)
    head = {}
    if c['meta_first']:
        head['metadata'] = {'producer': 'torch.profiler', 'saved_by': 'postprocess.py'}
    head['schemaVersion'] = 1
    if not c['meta_first']:
        head['deviceProperties'] = dev
    if G.amd:
        head['roctracer_version'] = 4.1
        head['hip_runtime_version'] = 70253211
        head['hip_driver_version'] = 70253211
    else:
        head['cupti_version'] = rng.choice([24, 26, 130001])
        head['cuda_runtime_version'] = rng.choice([12080, 12090, 13000])
        head['cuda_driver_version'] = rng.choice([12080, 12090, 13030])
    if dist:
        head['distributedInfo'] = dist
    head['record_shapes'] = 1 if c['record_shapes'] else 0
    head['with_stack'] = 1 if c['python_stack'] else 0
    head['trace_id'] = trace_id
    head['displayTimeUnit'] = 'ms'
    head['baseTimeNanoseconds'] = 1770000000000000000 + rng.randint(0, 10 ** 16)
    head['traceEvents'] = events
    if c['meta_first']:
        head['deviceProperties'] = dev
    head['traceName'] = '/tmp/tmp%s.json' % ''.join(rng.choice('abcdefghijklmnopqrstuvwxyz0123456789_') for _ in range(8))

    # ---- debug info for the self-check
    dbg = {'windows': [], 'lo': lo, 'hi': hi}
    kept_ann = set(id(e) for e in cpu)
    pbu = passes_by_uid(tr.plan)
    for w in tr.step_windows:
        for a in w['anns']:
            if id(a) not in kept_ann:
                continue
            lts = [r['rt']['ts'] for r in recs if r['rt'] is not None and r['ks']
                   and isinstance(r['ks'][0]['_tag'][1], int) and pbu[r['ks'][0]['_tag'][0]]['step'] == w['step']]
            dbg['windows'].append({'name': a['name'], 'ts': T(a['ts']), 'end': T(a['ts'] + a['dur']),
                                   'launches': [T(x) for x in lts]})
    return head, dbg


# --------------------------------------------------------------------------
# public API
# --------------------------------------------------------------------------
def _build_internal(seed, names='real'):
    if names not in ('real', 'random'):
        raise ValueError('names must be real or random')
    tr = Trace(seed, names)
    tr.run()
    doc, truth, dbg = finalize(tr)
    return doc, truth, dbg


def build(seed, names='real'):
    """-> (trace document dict, truth dict); deterministic per (seed, names)."""
    doc, truth, _ = _build_internal(seed, names)
    return doc, truth


def _dumps_indent(doc, n):
    """json.dumps(doc, indent=n), the same text, twice as fast: the
    standard library indents with its pure-Python encoder, a generator a
    nesting level (most of this generator's time on the indented layouts);
    this one joins each container's parts."""
    enc = json.encoder.encode_basestring_ascii
    pad = ' ' * n
    irepr, frepr = int.__repr__, float.__repr__
    inf = float('inf')

    def flt(o):
        if o != o:
            return 'NaN'
        if o == inf:
            return 'Infinity'
        if o == -inf:
            return '-Infinity'
        return frepr(o)

    def key(k):
        t = type(k)
        if t is str:
            return enc(k)
        if t is float:
            return enc(flt(k))
        if k is True:
            return '"true"'
        if k is False:
            return '"false"'
        if k is None:
            return '"null"'
        if t is int:
            return enc(irepr(k))
        raise TypeError('keys must be str, int, float, bool or None, not %s' % t.__name__)

    def val(o, nl):
        t = type(o)
        if t is str:
            return enc(o)
        if t is int:
            return irepr(o)
        if t is float:
            return flt(o)
        if t is dict:
            if not o:
                return '{}'
            nl2 = nl + pad
            parts = []
            for k, v in o.items():
                tv = type(v)
                if tv is str:
                    v = enc(v)
                elif tv is int:
                    v = irepr(v)
                elif tv is float:
                    v = flt(v)
                else:
                    v = val(v, nl2)
                parts.append((enc(k) if type(k) is str else key(k)) + ': ' + v)
            return '{' + nl2 + (',' + nl2).join(parts) + nl + '}'
        if t is list or t is tuple:
            if not o:
                return '[]'
            nl2 = nl + pad
            parts = []
            for v in o:
                tv = type(v)
                if tv is str:
                    v = enc(v)
                elif tv is int:
                    v = irepr(v)
                elif tv is float:
                    v = flt(v)
                else:
                    v = val(v, nl2)
                parts.append(v)
            return '[' + nl2 + (',' + nl2).join(parts) + nl + ']'
        if o is None:
            return 'null'
        if o is True:
            return 'true'
        if o is False:
            return 'false'
        raise TypeError('not a plain JSON type: %s' % t.__name__)

    return val(doc, '\n')


def dump_doc(doc, layout):
    if layout == 'compact':
        return json.dumps(doc)
    if layout in ('indent1', 'indent2', 'indent4'):
        return _dumps_indent(doc, int(layout[-1]))
    # one event per line
    parts = ['{']
    keys = list(doc.keys())
    for i, k in enumerate(keys):
        sep = ',' if i < len(keys) - 1 else ''
        if k == 'traceEvents':
            parts.append('  "traceEvents": [')
            ev = doc[k]
            for j, e in enumerate(ev):
                parts.append('  ' + json.dumps(e) + (',' if j < len(ev) - 1 else ''))
            parts.append('  ]' + sep)
        else:
            parts.append('  %s: %s%s' % (json.dumps(k), json.dumps(doc[k]), sep))
    parts.append('}')
    return '\n'.join(parts) + '\n'


def layout_for(seed, n_events=0):
    r = random.Random(seed * 3 + 1)
    if n_events > 9000:
        return wchoice(r, [('compact', 0.5), ('lines', 0.5)])
    return wchoice(r, [('compact', 0.3), ('indent1', 0.25), ('indent2', 0.1), ('indent4', 0.05), ('lines', 0.3)])


def write(seed, names, out, level=6):
    """level: gzip's compression level (the sweeps, which delete each trace
    once judged, write at 1: the same JSON, a third of the time)."""
    doc, truth = build(seed, names)
    os.makedirs(out, exist_ok=True)
    base = os.path.join(out, '%s_%d' % (names, seed))
    layout = layout_for(seed, len(doc['traceEvents']))
    text = dump_doc(doc, layout)
    if random.Random(seed).random() < 0.1:
        text = '\n' + text
    raw = text.encode()
    with gzip.open(base + '.json.gz', 'wb', compresslevel=level) as f:
        f.write(raw)
    truth['raw_bytes'] = len(raw)
    truth['layout'] = layout
    with open(base + '.truth.json', 'w') as f:
        json.dump(truth, f, indent=1)
        f.write('\n')
    return base + '.json.gz', truth


def main(argv=None):
    ap = argparse.ArgumentParser(description='independent synthetic LLM-inference Kineto trace generator')
    ap.add_argument('--seed', type=int, required=True)
    ap.add_argument('--names', choices=['real', 'random'], default='real')
    ap.add_argument('--out', default='.')
    a = ap.parse_args(argv)
    path, truth = write(a.seed, a.names, a.out)
    print('%s: %d complete passes (%s), %d layers, %d events, %d bytes' % (
        path, truth['complete_passes'], ','.join(sorted(set(truth['stages']))), truth['layers_per_pass'],
        truth['events'], truth['raw_bytes']))
    return 0


if __name__ == '__main__':
    sys.exit(main())
