__global__ void __launch_bounds__(kThreadsPerBlock)
    spmvCsrWarpPerRow(const int* __restrict__ rowPtr,
                      const int* __restrict__ colIdx,
                      const float* __restrict__ val,
                      const float* __restrict__ x,
                      float* __restrict__ y, size_t nRows) {
    const size_t t = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    const size_t row = t / kWarpSize;
    const unsigned int lane = threadIdx.x % kWarpSize;
    if (row < nRows) {
        const int end = rowPtr[row + 1];
        float sum = 0.0f;
        for (int j = rowPtr[row] + static_cast<int>(lane); j < end;
             j += kWarpSize) {
            sum += val[j] * x[colIdx[j]];
        }
        for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
            sum += __shfl_down_sync(0xffffffffu, sum, offset);
        }
        if (lane == 0) {
            y[row] = sum;
        }
    }
}
