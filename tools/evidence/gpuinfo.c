/*
 * gpuinfo: describe CUDA device 0 as the header of a transcript needs it,
 * one "key: value" line each:
 *
 *   gpu: NVIDIA H200
 *   compute capability: 9.0
 *   sms: 132
 *   driver: 580.82.07 (CUDA 13.0)
 *   runtime: 13.0
 *
 * With no usable CUDA device it prints one line on stderr saying why and
 * exits 1. C11 against the CUDA runtime API, built with
 *   nvcc -o gpuinfo gpuinfo.c
 */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

/* The kernel driver's version from /proc/driver/nvidia/version ("NVRM
 * version: NVIDIA UNIX x86_64 Kernel Module  580.82.07  ..."): the first
 * word after "Module" that starts with a digit. Empty where there is no
 * such file (other systems, WSL). */
static void kernel_driver(char *out, size_t size) {
    out[0] = '\0';
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    if (!f) {
        return;
    }
    char line[512];
    if (fgets(line, sizeof line, f)) {
        const char *p = strstr(line, "Module");
        if (p) {
            p += strlen("Module");
            while (*p) {
                while (*p == ' ' || *p == '\t') {
                    p++;
                }
                size_t n = strcspn(p, " \t\n");
                if (n && *p >= '0' && *p <= '9') {
                    if (n >= size) {
                        n = size - 1;
                    }
                    memcpy(out, p, n);
                    out[n] = '\0';
                    break;
                }
                p += n;
            }
        }
    }
    fclose(f);
}

int main(void) {
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        fprintf(stderr, "no CUDA device (%s: %s)\n", cudaGetErrorName(err),
                cudaGetErrorString(err));
        return 1;
    }
    if (count == 0) {
        fputs("no CUDA device\n", stderr);
        return 1;
    }
    struct cudaDeviceProp prop;
    err = cudaGetDeviceProperties(&prop, 0);
    int driver = 0, runtime = 0;
    if (err == cudaSuccess) {
        err = cudaDriverGetVersion(&driver);
    }
    if (err == cudaSuccess) {
        err = cudaRuntimeGetVersion(&runtime);
    }
    if (err != cudaSuccess) {
        fprintf(stderr, "cannot describe CUDA device 0 (%s: %s)\n",
                cudaGetErrorName(err), cudaGetErrorString(err));
        return 1;
    }
    char kernel[64];
    kernel_driver(kernel, sizeof kernel);

    printf("gpu: %s\n", prop.name);
    printf("compute capability: %d.%d\n", prop.major, prop.minor);
    printf("sms: %d\n", prop.multiProcessorCount);
    if (kernel[0]) {
        printf("driver: %s (CUDA %d.%d)\n", kernel, driver / 1000,
               driver % 1000 / 10);
    } else {
        printf("driver: CUDA %d.%d\n", driver / 1000, driver % 1000 / 10);
    }
    printf("runtime: %d.%d\n", runtime / 1000, runtime % 1000 / 10);
    return fflush(stdout) == 0 ? 0 : 1;
}
