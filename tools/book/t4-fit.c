/* t4-fit: how each kernel of a program fits a Tesla T4, read from the
 * program's sm_75 code alone, with no GPU.
 *
 * Usage: t4-fit values PROG PTXAS PTX   > build/values/PROG/tesla-t4.fit.tsv
 *        t4-fit table [-c CHAPTER] [PROG PTXAS PTX ...] > build/md/NAME.fit.md
 *        t4-fit check PROG PTXAS PTX
 *
 * PTXAS is what `nvcc -arch=sm_75 --resource-usage -cubin -o /dev/null`
 * printed for PROG: each kernel's registers per thread and static shared
 * memory. PTX is the same source compiled with -ptx, where a kernel's
 * __launch_bounds__ is its .maxntid (or .reqntid): the block size it is
 * built for. From these and the T4's limits the tool computes how many
 * blocks of each kernel an SM holds at once, which limit stops it there,
 * and the occupancy: the SM's resident warps over the 32 it can hold.
 *
 * values: NAME<TAB>VALUE<TAB>SOURCE lines, t4_ID_threads, t4_ID_regs,
 *   t4_ID_smem, t4_ID_blocks_per_sm and t4_ID_occupancy_pct per kernel (a
 *   kernel with no bound has only its regs and smem), SOURCE the kernel's
 *   line in PTXAS.
 * table: the section of the chapter's page that shows them, a table per
 *   program (none for none).
 * check: nothing, and exit status 0, where every kernel runs at least one
 *   block on a T4 (a kernel with no bound, one warp); else a line per
 *   kernel that cannot, at its line in PTXAS, saying why; exit status 1.
 *
 * A kernel's ID, which names its values: its name demangled by c++filt,
 * without the return type, the parameters and every namespace or class
 * qualifier (cub::detail::X<...>: X<...>), then read as words: each name in
 * snake_case (scanTileHillisSteele: scan_tile_hillis_steele), "unsigned T"
 * as uT (unsigned int: uint), '*' as ptr, '&' as ref, a number without its
 * suffix (0u: 0), '-' before a number as neg, anything else between words;
 * the words joined by '_'. So lookbackScanKernel<WarpScanShuffle,
 * TileShape<256, 16, true>, CooperativeLookback<0u> > is
 * lookback_scan_kernel_warp_scan_shuffle_tile_shape_256_16_true_cooperative_lookback_0.
 * Two kernels of a program with one ID are an error.
 */
#define _POSIX_C_SOURCE 200809L
#include "escape.h"
#include "names.h"
#include "util.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The Tesla T4: compute capability 7.5, 40 SMs. The limits are those of the
 * CUDA C++ Programming Guide, "Technical Specifications per Compute
 * Capability", column 7.5; how they combine is the occupancy calculator's,
 * as the CUDA Toolkit's cuda_occupancy.h (read in CUDA 13.0) computes it:
 * - registers go to warps, a thread's count times 32 rounded up to 256
 *   (cudaOccRegAllocationGranularity), each warp's within one of the SM's 4
 *   sub-partitions, which hold a quarter of the 65536 each; a block fits
 *   only where its warps, rounded up to a multiple of 4, fit in 65536
 *   (cudaOccMaxBlocksPerSMRegsLimit, "Hardware check"). A thread has at
 *   most 255 (the guide; ptxas never gives more).
 * - shared memory goes to blocks in units of 256 bytes on 7.x
 *   (cudaOccSMemAllocationGranularity; 128 from 8.x). The 1 KiB per block
 *   the driver reserves is from 8.x on (cudaOccSMemPerBlock, "Starting
 *   Ampere"; reservedSharedMemPerBlock is 0 on 7.5), so none here. An SM
 *   has 64 KiB with the default carveout (Turing offers 32 or 64 KiB,
 *   cudaOccSMemPreferenceVoltaPlus); a block's static shared memory is at
 *   most 48 KiB (sharedMemPerBlock).
 * - 16 blocks per SM on Turing (cudaOccMaxBlocksPerMultiprocessor), 32
 *   warps (1024 threads) per SM, 1024 threads per block. */
enum {
    kWarpSize = 32,
    kMaxThreadsPerBlock = 1024,
    kMaxWarpsPerSm = 32,
    kMaxBlocksPerSm = 16,
    kRegsPerSm = 65536,
    kRegsPerBlock = 65536,
    kMaxRegsPerThread = 255,
    kRegUnit = 256,
    kSubPartitions = 4,
    kSmemPerSm = 65536,
    kSmemPerBlock = 49152,
    kSmemUnit = 256,
};
static const char kArch[] = "sm_75";

struct kernel {
    char *mangled;
    char *name;  /* demangled */
    char *id;
    char *shown; /* as the code names it: without return type, parameters
                  * and qualifiers */
    long line;   /* of its "Compiling entry function" in PTXAS */
    int regs;    /* -1 until its "Used" line */
    long smem;
    long threads; /* 0: no bound */
    int in_ptx;
};

struct program {
    const char *name, *ptxas, *ptx;
    struct kernel *k;
    size_t n, cap;
};

/* What stops more blocks of a kernel on an SM. */
enum limit { kByThreads, kByWarps, kByBlocks, kByRegs, kBySmem, kLimits };
static const char *const kLimitNames[kLimits] = {
    "threads", "warps", "blocks", "registers", "shared memory",
};

struct fit {
    long threads, warps; /* per block */
    long by[kLimits];    /* blocks per SM each limit allows */
    long blocks;
    unsigned limits;     /* bit i: limit i allows no more than blocks */
    long regs_per_warp;  /* as allocated */
    long smem_per_block; /* as allocated */
};

static long round_up(long x, long unit) {
    return (x + unit - 1) / unit * unit;
}

static long fit_regs(const struct kernel *k, long warps, long *per_warp) {
    *per_warp = round_up((long)k->regs * kWarpSize, kRegUnit);
    if (k->regs > kMaxRegsPerThread ||
        *per_warp * round_up(warps, kSubPartitions) > kRegsPerBlock) {
        return 0;
    }
    if (*per_warp == 0) {
        return LONG_MAX;
    }
    long per_sub = kRegsPerSm / kSubPartitions / *per_warp;
    return per_sub * kSubPartitions / warps;
}

/* The fit of k in blocks of threads threads. */
static struct fit fit_kernel(const struct kernel *k, long threads) {
    struct fit f = {0};
    f.threads = threads;
    f.warps = (threads + kWarpSize - 1) / kWarpSize;
    f.by[kByThreads] = threads > kMaxThreadsPerBlock ? 0 : LONG_MAX;
    f.by[kByWarps] = kMaxWarpsPerSm / f.warps;
    f.by[kByBlocks] = kMaxBlocksPerSm;
    f.by[kByRegs] = fit_regs(k, f.warps, &f.regs_per_warp);
    f.smem_per_block = round_up(k->smem, kSmemUnit);
    f.by[kBySmem] = f.smem_per_block > kSmemPerBlock ? 0
                    : f.smem_per_block == 0 ? LONG_MAX
                    : kSmemPerSm / f.smem_per_block;
    f.blocks = LONG_MAX;
    for (int i = 0; i < kLimits; ++i) {
        if (f.by[i] < f.blocks) {
            f.blocks = f.by[i];
        }
    }
    for (int i = 0; i < kLimits; ++i) {
        if (f.by[i] == f.blocks) {
            f.limits |= 1u << i;
        }
    }
    return f;
}

static double occupancy_pct(const struct fit *f) {
    return 100.0 * (double)(f->blocks * f->warps) / kMaxWarpsPerSm;
}

/* --- Reading ptxas's report and the PTX ----------------------------------- */

static struct kernel *find_kernel(struct program *p, const char *mangled) {
    for (size_t i = 0; i < p->n; ++i) {
        if (strcmp(p->k[i].mangled, mangled) == 0) {
            return &p->k[i];
        }
    }
    return NULL;
}

static const char kEntry[] = "Compiling entry function '";
static const char kFor[] = "' for '";

/* A "Compiling entry function 'NAME' for 'ARCH'" line: the kernel it
 * starts, NULL for another arch; 1 in *bad where it is malformed. */
static struct kernel *entry_line(struct program *p, long line, char *at,
                                 int *bad) {
    char *name = at + sizeof kEntry - 1;
    char *q = strstr(name, kFor);
    if (q == NULL || q == name) {
        nw_error(p->ptxas, line, "a kernel's report without its name and arch");
        *bad = 1;
        return NULL;
    }
    *q = '\0';
    const char *arch = q + sizeof kFor - 1;
    if (strncmp(arch, kArch, sizeof kArch - 1) != 0 ||
        arch[sizeof kArch - 1] != '\'') {
        return NULL;
    }
    if (find_kernel(p, name) != NULL) {
        nw_error(p->ptxas, line, "kernel %s is reported twice", name);
        *bad = 1;
        return NULL;
    }
    p->k = nw_grow(p->k, &p->cap, p->n + 1, sizeof *p->k);
    struct kernel *k = &p->k[p->n++];
    *k = (struct kernel){nw_xstrdup(name), NULL, NULL, NULL, line, -1, 0, 0, 0};
    return k;
}

/* A "Used N registers, ..., M bytes smem, ..." line, for kernel k. */
static void used_line(struct kernel *k, const char *at) {
    if (sscanf(at, "Used %d registers", &k->regs) != 1) {
        return;
    }
    for (const char *t = strchr(at, ','); t != NULL; t = strchr(t + 1, ',')) {
        long v;
        char unit[8];
        if (sscanf(t, ", %ld bytes %7[a-z]", &v, unit) == 2 &&
            strcmp(unit, "smem") == 0) {
            k->smem = v;
        }
    }
}

static int read_ptxas(struct program *p) {
    char *text = nw_slurp_text(p->ptxas);
    if (text == NULL) {
        nw_error(p->ptxas, 0, "cannot read it (ptxas's report of the program)");
        return 1;
    }
    int bad = 0;
    long line = 0;
    struct kernel *cur = NULL;
    for (char *s = text; *s != '\0';) {
        char *e = strchr(s, '\n');
        if (e != NULL) {
            *e = '\0';
        }
        ++line;
        char *at;
        if ((at = strstr(s, kEntry)) != NULL) {
            cur = entry_line(p, line, at, &bad);
        } else if (cur != NULL && cur->regs < 0 &&
                   (at = strstr(s, "Used ")) != NULL) {
            used_line(cur, at);
        }
        if (e == NULL) {
            break;
        }
        s = e + 1;
    }
    free(text);
    for (size_t i = 0; i < p->n; ++i) {
        if (p->k[i].regs < 0) {
            nw_error(p->ptxas, p->k[i].line,
                     "kernel %s: no \"Used N registers\" line follows",
                     p->k[i].mangled);
            bad = 1;
        }
    }
    return bad;
}

/* ".maxntid 256, 1, 1" or ".reqntid 256": the threads of a block. */
static long ntid(const char *s) {
    long d[3] = {1, 1, 1};
    int got = sscanf(s + strlen(".maxntid"), " %ld , %ld , %ld", &d[0], &d[1], &d[2]);
    return got >= 1 ? d[0] * d[1] * d[2] : 0;
}

/* An entry's name in ".visible .entry NAME(": into name, of size size. */
static int entry_name(const char *s, char *name, size_t size) {
    const char *at = strstr(s, ".entry ");
    if (at == NULL || strncmp(s, "//", 2) == 0) {
        return 0;
    }
    at += strlen(".entry ");
    size_t n = strcspn(at, "( \t");
    snprintf(name, size, "%.*s", (int)n, at);
    return n > 0 && n < size;
}

static int ptx_line(struct program *p, long line, const char *s,
                    struct kernel **cur) {
    char name[4096];
    if (entry_name(s, name, sizeof name)) {
        *cur = find_kernel(p, name);
        if (*cur == NULL) {
            nw_error(p->ptx, line, "kernel %s is not in ptxas's report %s",
                     name, p->ptxas);
            return 1;
        }
        (*cur)->in_ptx = 1;
    } else if (*cur != NULL && s[0] == '{') {
        *cur = NULL; /* its body: the directives are above it */
    } else if (*cur != NULL && strncmp(s, ".reqntid", 8) == 0) {
        (*cur)->threads = ntid(s);
    } else if (*cur != NULL && strncmp(s, ".maxntid", 8) == 0 &&
               (*cur)->threads == 0) {
        (*cur)->threads = ntid(s);
    }
    return 0;
}

static int read_ptx(struct program *p) {
    char *text = nw_slurp_text(p->ptx);
    if (text == NULL) {
        nw_error(p->ptx, 0, "cannot read it (the program's PTX)");
        return 1;
    }
    int bad = 0;
    long line = 0;
    struct kernel *cur = NULL;
    for (char *s = text; *s != '\0';) {
        char *e = strchr(s, '\n');
        if (e != NULL) {
            *e = '\0';
        }
        ++line;
        bad |= ptx_line(p, line, s + strspn(s, " \t"), &cur);
        if (e == NULL) {
            break;
        }
        s = e + 1;
    }
    free(text);
    for (size_t i = 0; i < p->n; ++i) {
        if (!p->k[i].in_ptx) {
            nw_error(p->ptxas, p->k[i].line, "kernel %s is not in the PTX %s",
                     p->k[i].mangled, p->ptx);
            bad = 1;
        }
    }
    return bad;
}

/* --- Names ------------------------------------------------------------- */

/* Every kernel's name through c++filt, given as its arguments. */
static int demangle(struct program *p) {
    struct nw_buf cmd = {NULL, 0, 0};
    nw_buf_puts(&cmd, "c++filt --");
    for (size_t i = 0; i < p->n; ++i) {
        const char *m = p->k[i].mangled;
        if (m[strspn(m, "abcdefghijklmnopqrstuvwxyz"
                        "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.")] != '\0') {
            nw_error(p->ptxas, p->k[i].line, "kernel name %s: a character "
                     "outside [A-Za-z0-9_.]", m);
            free(cmd.s);
            return 1;
        }
        nw_buf_puts(&cmd, " ");
        nw_buf_puts(&cmd, m);
    }
    FILE *f = popen(cmd.s, "r");
    free(cmd.s);
    char *line = NULL;
    size_t cap = 0;
    size_t got = 0;
    while (f != NULL && got < p->n && getline(&line, &cap, f) > 0) {
        line[strcspn(line, "\n")] = '\0';
        p->k[got++].name = nw_xstrdup(line);
    }
    free(line);
    int status = f != NULL ? pclose(f) : -1;
    if (got < p->n || status != 0) {
        nw_error(p->ptxas, 0, "c++filt (binutils) did not demangle the "
                 "kernels' names; install binutils");
        return 1;
    }
    return 0;
}

/* The start of the qualifier that ends at s[at], "::": back over names and
 * balanced <...> and (...), to a '<', ',', ' ' or '(' that is not in one. */
static size_t qualifier_start(const char *s, size_t at) {
    size_t i = at;
    while (i > 0) {
        char c = s[i - 1];
        if (c == '>' || c == ')') {
            int depth = 0;
            do {
                c = s[--i];
                depth += (c == '>' || c == ')') - (c == '<' || c == '(');
            } while (depth > 0 && i > 0);
            continue;
        }
        if (c == '<' || c == ',' || c == ' ' || c == '(') {
            break;
        }
        --i;
    }
    return i;
}

/* s without its return type, parameters and qualifiers, in place. */
static void bare_name(char *s) {
    if (strncmp(s, "void ", 5) == 0) {
        memmove(s, s + 5, strlen(s + 5) + 1);
    }
    size_t n = strlen(s);
    if (n > 0 && s[n - 1] == ')') {
        int depth = 0;
        size_t i = n;
        do {
            --i;
            depth += (s[i] == ')') - (s[i] == '(');
        } while (depth > 0 && i > 0);
        s[i] = '\0';
    }
    char *q;
    while ((q = strstr(s, "::")) != NULL) {
        size_t at = (size_t)(q - s);
        size_t from = qualifier_start(s, at);
        memmove(s + from, q + 2, strlen(q + 2) + 1);
    }
}

static void add_word(struct nw_buf *b, const char *w, size_t n) {
    if (n == 0) {
        return;
    }
    if (b->n > 0) {
        nw_buf_add(b, "_", 1);
    }
    nw_buf_add(b, w, n);
}

/* A C++ name as a word: snake_case, runs of '_' as one, none at the ends. */
static void add_snake(struct nw_buf *b, const char *s, size_t n) {
    char w[1024];
    size_t m = 0;
    for (size_t i = 0; i < n && m + 2 < sizeof w; ++i) {
        unsigned char c = (unsigned char)s[i];
        int prev_low = i > 0 && (islower((unsigned char)s[i - 1]) ||
                                 isdigit((unsigned char)s[i - 1]));
        int acronym_end = i > 0 && isupper((unsigned char)s[i - 1]) &&
                          i + 1 < n && islower((unsigned char)s[i + 1]);
        if ((isupper(c) && (prev_low || acronym_end)) || c == '_') {
            if (m > 0 && w[m - 1] != '_') {
                w[m++] = '_';
            }
            if (c == '_') {
                continue;
            }
        }
        w[m++] = (char)tolower(c);
    }
    while (m > 0 && w[m - 1] == '_') {
        --m;
    }
    add_word(b, w, m);
}

static const char *const kUnsigned[] = {"int", "long", "short", "char"};

/* "unsigned T" at s, T one of kUnsigned: the length of T, else 0. */
static size_t unsigned_type(const char *s) {
    for (size_t i = 0; i < sizeof kUnsigned / sizeof *kUnsigned; ++i) {
        size_t n = strlen(kUnsigned[i]);
        if (strncmp(s, kUnsigned[i], n) == 0 &&
            !isalnum((unsigned char)s[n]) && s[n] != '_') {
            return n;
        }
    }
    return 0;
}

/* The ID of a kernel whose name, bare (bare_name), is s (see the top). */
static char *kernel_id(const char *s) {
    struct nw_buf b = {NULL, 0, 0};
    nw_buf_add(&b, "", 0);
    for (const char *p = s; *p != '\0';) {
        unsigned char c = (unsigned char)*p;
        size_t n = 1;
        if (isalpha(c) || c == '_') {
            n = strspn(p, "abcdefghijklmnopqrstuvwxyz"
                          "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
            size_t t;
            if (n == 8 && strncmp(p, "unsigned", 8) == 0 && p[8] == ' ' &&
                (t = unsigned_type(p + 9)) > 0) {
                add_word(&b, "u", 1);
                nw_buf_add(&b, p + 9, t);
                n = 9 + t;
            } else {
                add_snake(&b, p, n);
            }
        } else if (isdigit(c)) {
            n = strspn(p, "0123456789");
            add_word(&b, p, n);
            n += strspn(p + n, "uUlL");
        } else if (c == '*' || c == '&') {
            add_word(&b, c == '*' ? "ptr" : "ref", 3);
        } else if (c == '-' && isdigit((unsigned char)p[1])) {
            add_word(&b, "neg", 3);
        }
        p += n;
    }
    return b.s;
}

/* By ID; kernels of one ID, an error, by mangled name, so that the error
 * names them in one order. */
static int by_id(const void *a, const void *b) {
    const struct kernel *x = a, *y = b;
    int c = strcmp(x->id, y->id);
    return c != 0 ? c : strcmp(x->mangled, y->mangled);
}

/* A kernel of a library the CUDA Toolkit ships, not of the book. */
static int is_library(const char *name) {
    return strstr(name, "cub::") != NULL || strstr(name, "thrust::") != NULL;
}

/* Every kernel's ID, the kernels in their order; two of the book's own
 * alike are an error. */
static int name_kernels(struct program *p) {
    int bad = 0;
    for (size_t i = 0; i < p->n; ++i) {
        p->k[i].shown = nw_xstrdup(p->k[i].name);
        bare_name(p->k[i].shown);
        p->k[i].id = kernel_id(p->k[i].shown);
        if (p->k[i].id[0] == '\0') {
            nw_error(p->ptxas, p->k[i].line, "kernel %s: its name makes no "
                     "ID", p->k[i].name);
            bad = 1;
        }
    }
    qsort(p->k, p->n, sizeof *p->k, by_id);
    size_t first = 0; /* the first kernel with this ID, which keeps it */
    for (size_t i = 1; i < p->n; ++i) {
        if (strcmp(p->k[first].id, p->k[i].id) != 0) {
            first = i;
        }
        size_t same = i - first + 1;
        /* A library's kernels (CUB's, Thrust's) differ in template
         * arguments the ID leaves out: they are told apart by number, in
         * the order of their mangled names. */
        if (same > 1 && is_library(p->k[i].name)) {
            char *id = nw_xrealloc(NULL, strlen(p->k[i].id) + 24);
            sprintf(id, "%s_%zu", p->k[i].id, same);
            free(p->k[i].id);
            p->k[i].id = id;
        } else if (same > 1) {
            nw_error(p->ptxas, p->k[i].line, "kernels %s and %s both have "
                     "the ID %s; rename one", p->k[i - 1].name, p->k[i].name,
                     p->k[i].id);
            bad = 1;
        }
    }
    return bad;
}

static int load(struct program *p) {
    if (read_ptxas(p) || read_ptx(p)) {
        return 1;
    }
    if (p->n > 0 && demangle(p)) {
        return 1;
    }
    return name_kernels(p);
}

static void free_program(struct program *p) {
    for (size_t i = 0; i < p->n; ++i) {
        free(p->k[i].mangled);
        free(p->k[i].name);
        free(p->k[i].id);
        free(p->k[i].shown);
    }
    free(p->k);
}

/* --- Output ------------------------------------------------------------ */

static void put_value(const struct program *p, const struct kernel *k,
                      const char *what, double v) {
    printf("t4_%s_%s\t%g\tT4 fit of %s:%ld (%s)\n", k->id, what, v, p->ptxas,
           k->line, kArch);
}

/* The T4's published figures, which the prose quotes beside the fit:
 * its SMs, the memory a program may use of its 16 GB, its memory
 * bandwidth (NVIDIA's T4 datasheet: 320 GB/s; 40 SMs; 15 GiB usable) and
 * its L2 cache (the Turing architecture whitepaper: 4096 KB for TU104). */
enum { kT4Sms = 40, kT4MemoryGib = 15, kT4DramGbs = 320, kT4L2Mib = 4 };

static void put_device_values(void) {
    static const struct {
        const char *name;
        int value;
    } kFigures[] = {
        {"t4_sms", kT4Sms},
        {"t4_memory_gib", kT4MemoryGib},
        {"t4_dram_gbs", kT4DramGbs},
        {"t4_l2_mib", kT4L2Mib},
    };
    for (size_t i = 0; i < sizeof kFigures / sizeof kFigures[0]; ++i) {
        printf("%s\t%d\tthe Tesla T4's published figures\n", kFigures[i].name,
               kFigures[i].value);
    }
}

static void put_values(const struct program *p) {
    put_device_values();
    for (size_t i = 0; i < p->n; ++i) {
        const struct kernel *k = &p->k[i];
        if (k->threads > 0) {
            put_value(p, k, "threads", (double)k->threads);
        }
        put_value(p, k, "regs", k->regs);
        put_value(p, k, "smem", (double)k->smem);
        if (k->threads > 0) {
            struct fit f = fit_kernel(k, k->threads);
            put_value(p, k, "blocks_per_sm", (double)f.blocks);
            put_value(p, k, "occupancy_pct", occupancy_pct(&f));
        }
    }
}

/* The limits in mask, as "warps" or "warps and blocks". */
static void put_limits(unsigned mask) {
    int left = 0;
    for (int i = 0; i < kLimits; ++i) {
        left += (mask >> i) & 1u;
    }
    for (int i = 0; i < kLimits; ++i) {
        if ((mask >> i) & 1u) {
            printf("%s%s", kLimitNames[i], --left == 0 ? "" : left == 1 ? " and " : ", ");
        }
    }
}

/* A kernel as the code names it, its values' key in its title; one of the
 * book's (not a library's) links to its entry in identifiers.html, where
 * the chapter is given. */
static void put_kernel(const struct program *p, const struct kernel *k,
                       const char *chapter) {
    int own = chapter != NULL && !is_library(k->name);
    if (own) {
        size_t n = strcspn(k->shown, "<");
        char *base = nw_xstrdup(k->shown);
        base[n] = '\0';
        char *href = nw_ident_href(chapter, base);
        printf("<a href=\"%s\">", href);
        free(href);
        free(base);
    }
    printf("<code title=\"quoted as %s.t4_", p->name);
    nw_put_html(stdout, k->id);
    printf("_...\">");
    nw_put_html(stdout, k->shown);
    printf("</code>%s", own ? "</a>" : "");
}

static void put_row(const struct program *p, const struct kernel *k,
                    const char *chapter) {
    printf("| ");
    put_kernel(p, k, chapter);
    /* The bytes and their unit on one line: U+00A0 between them. */
    if (k->threads == 0) {
        printf(" | no bound | %d | %ld\xc2\xa0" "B | — | no `__launch_bounds__` | — |\n",
               k->regs, k->smem);
        return;
    }
    struct fit f = fit_kernel(k, k->threads);
    printf(" | %ld | %d | %ld\xc2\xa0" "B | %ld | ", k->threads, k->regs, k->smem,
           f.blocks);
    put_limits(f.limits);
    printf(" | %g%% |\n", occupancy_pct(&f));
}

/* Kernels past this many fold behind "show all": a sweep's instances
 * would make the table a page of its own. */
enum { kTableRows = 12 };

static void put_table(const struct program *p, const char *chapter) {
    printf("### `%s.cu` on a T4 {#sec-t4-fit-%s}\n\n", p->name, p->name);
    if (p->n == 0) {
        printf("This program has no kernels.\n\n");
        return;
    }
    printf("::: {.t4-fit}\n");
    if (p->n > kTableRows) {
        printf("<details class=\"fold\">\n<summary>Show all %zu kernels</summary>\n\n",
               p->n);
    }
    /* The dashes give pandoc the columns' widths, in percent: the table's
     * lines are longer than its 72 columns. */
    printf("| kernel | threads | registers | shared memory | blocks per SM "
           "| limited by | occupancy |\n"
           "| ---------------------------------------------------- | ------: "
           "| ------: | ---------: | ------: | --------------- | --------: |\n");
    for (size_t i = 0; i < p->n; ++i) {
        put_row(p, &p->k[i], chapter);
    }
    printf("\n");
    if (p->n > kTableRows) {
        printf("</details>\n\n");
    }
    printf(":::\n\n");
}

static void put_intro(void) {
    printf("## On a Tesla T4 {#sec-t4-fit}\n\n"
           "How many blocks of each kernel an SM of a Tesla T4 (compute "
           "capability 7.5) holds at once, computed from the `%s` code with "
           "no GPU: ptxas reports each kernel's registers per thread and "
           "static shared memory, and its `__launch_bounds__` give its block "
           "size. An SM holds at most %d blocks, %d warps, %d registers "
           "(allocated to warps in units of %d) and %d KiB of shared memory "
           "(to blocks in units of %d bytes); the occupancy is the resident "
           "warps over those %d. A chapter quotes a kernel's numbers by the "
           "key its name shows when pointed at, as `PROG.t4_KEY_threads`, "
           "`_regs`, `_smem`, `_blocks_per_sm` and `_occupancy_pct`.\n\n",
           kArch, kMaxBlocksPerSm, kMaxWarpsPerSm, kRegsPerSm, kRegUnit,
           kSmemPerSm / 1024, kSmemUnit, kMaxWarpsPerSm);
}

/* Why k cannot run one block as f has it, into why. */
static void reasons(const struct kernel *k, const struct fit *f, char *why,
                    size_t size) {
    size_t n = 0;
    why[0] = '\0';
    if (f->by[kByThreads] == 0) {
        n += (size_t)snprintf(why + n, size - n, "; %ld threads per block, "
                              "over the %d a block may have", f->threads,
                              kMaxThreadsPerBlock);
    }
    if (k->regs > kMaxRegsPerThread && n < size) {
        n += (size_t)snprintf(why + n, size - n, "; %d registers per thread, "
                              "over the %d a thread may have", k->regs,
                              kMaxRegsPerThread);
    } else if (f->by[kByRegs] == 0 && n < size) {
        n += (size_t)snprintf(why + n, size - n, "; %ld registers per block "
                              "(%ld per warp as allocated, %ld warps rounded "
                              "up to a multiple of %d), over the %d a block "
                              "may have",
                              f->regs_per_warp * round_up(f->warps, kSubPartitions),
                              f->regs_per_warp, f->warps, kSubPartitions,
                              kRegsPerBlock);
    }
    if (f->by[kBySmem] == 0 && n < size) {
        snprintf(why + n, size - n, "; %ld bytes of shared memory per block "
                 "as allocated, over the %d a block may have",
                 f->smem_per_block, kSmemPerBlock);
    }
}

static int check(const struct program *p) {
    int bad = 0;
    for (size_t i = 0; i < p->n; ++i) {
        const struct kernel *k = &p->k[i];
        long threads = k->threads > 0 ? k->threads : kWarpSize;
        struct fit f = fit_kernel(k, threads);
        if (f.blocks > 0) {
            continue;
        }
        char why[1024];
        reasons(k, &f, why, sizeof why);
        nw_error(p->ptxas, k->line, "kernel %s cannot run one block of %ld "
                 "threads on a Tesla T4: %s", k->id, threads,
                 why[0] != '\0' ? why + 2 : "no limit says why");
        bad = 1;
    }
    return bad;
}

static int usage(const char *tool) {
    fprintf(stderr, "usage: %s values|check PROG PTXAS PTX\n"
                    "       %s table [-c CHAPTER] [PROG PTXAS PTX ...]\n",
            tool, tool);
    return 2;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        return usage(argv[0]);
    }
    const char *mode = argv[1];
    int table = strcmp(mode, "table") == 0;
    /* table -c CHAPTER: the chapter whose identifiers its kernels link to */
    const char *chapter = NULL;
    int first = 2;
    if (table && argc >= 4 && strcmp(argv[2], "-c") == 0) {
        chapter = argv[3];
        first = 4;
    }
    if ((argc - first) % 3 != 0) {
        return usage(argv[0]);
    }
    if (table && argc == first) {
        return 0; /* a chapter with no programs: no section */
    }
    if (!table && (argc != 5 || (strcmp(mode, "values") != 0 &&
                                 strcmp(mode, "check") != 0))) {
        return usage(argv[0]);
    }
    int status = 0;
    if (table) {
        put_intro();
    }
    for (int i = first; i < argc && status == 0; i += 3) {
        struct program p = {argv[i], argv[i + 1], argv[i + 2], NULL, 0, 0};
        if (load(&p)) {
            status = 1;
        } else if (table) {
            put_table(&p, chapter);
        } else if (strcmp(mode, "values") == 0) {
            put_values(&p);
        } else {
            status = check(&p);
        }
        free_program(&p);
    }
    if (nw_flush_stdout(argv[0]) != 0) {
        return 1;
    }
    return status;
}
