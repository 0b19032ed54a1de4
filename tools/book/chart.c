/* chart: a chart of the values a transcript recorded.
 *
 * Usage:
 *   chart gnuplot SPEC TRANSCRIPT VALUES > chart.gp
 *                                   a gnuplot script that writes the SVG
 *                                   to stdout
 *   chart narrow SPEC TRANSCRIPT VALUES > narrow.gp
 *                                   the same chart laid out for a phone
 *   chart figure SPEC TRANSCRIPT VALUES IMAGE NARROW > fig.md
 *                                   the chart as a figure of the page
 *
 * The wide chart names each row left of its bar; the narrow one, drawn
 * kNarrowWidth pixels wide to be shown at about that width, puts the name
 * above the bar and wraps the title, so that no text is smaller than
 * kNarrowFont pixels on a phone. The figure is a raw HTML block for
 * Pandoc: a <picture> whose narrow source the browser takes on a narrow
 * screen, the wide image otherwise and in print, with the caption as the
 * image's text and under it.
 *
 * SPEC is evidence/PROG.chart, one directive a line ('#' starts a comment):
 *
 *   title  TEXT       what the chart shows (required)
 *   unit   TEXT       the unit of the values, under the axis
 *   better higher|lower
 *                     which way is better, said under the title
 *   group  TEXT       the rows that follow are drawn under the heading TEXT
 *   bar    NAME TEXT  a bar named TEXT on the chart: the value of the
 *                     named hole NAME, {{float:NAME}} in
 *                     evidence/PROG.expect, as the prose quotes it
 *                     (PROG.NAME)
 *   ref    NAME TEXT  the same, drawn as a reference: a bar of its own
 *                     colour and a dashed line across its group
 *
 * Text has its runs of blanks taken as one blank.
 *
 * TRANSCRIPT is evidence/PROG/GPU.txt, whose header gives the chart its GPU
 * and date (read with tcheck's reader, transcript.h); VALUES is its values
 * file, build/values/PROG/GPU.tsv (read with tools/lib/quote.h): the
 * named holes' values, each drawn with its text as recorded. A name the
 * values file lacks, or whose value is not a number from zero, is an error
 * at the line of SPEC that names it.
 *
 * Every string reaches gnuplot as a double-quoted string with its
 * backslashes and quotes escaped, in noenhanced mode, and gnuplot escapes
 * it for SVG; the figure's caption is escaped Markdown text.
 */
#define _POSIX_C_SOURCE 200809L
#include "escape.h"
#include "names.h"
#include "quote.h"
#include "transcript.h"
#include "util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* The chart's layout, in SVG pixels: wide enough for a row name and a bar
 * on one line, each bar tall enough to read its value. */
enum {
    kWidth = 640,
    kRowHeight = 30,
    kChrome = 150, /* title, subtitle, axis and its label */
    /* The narrow layout: its width, its smallest text, a row (a name over
     * a bar), and the characters of a title and a subtitle line. */
    kNarrowWidth = 380,
    kNarrowFont = 12,
    kNarrowRow = 44,
    kNarrowTitle = 40,
    kNarrowSub = 50,
    kMaxRows = 64,
    kMaxText = 200
};

enum row_kind { ROW_BAR, ROW_REF, ROW_GROUP };

struct row {
    enum row_kind kind;
    char label[kMaxText];  /* what the chart says */
    char name[kMaxText];   /* the named hole whose value it draws */
    long spec_line;
    const char *value;     /* the number as recorded (of the values read) */
    double v;
};

struct spec {
    const char *path;
    char title[kMaxText], unit[kMaxText];
    char better; /* 'h' higher, 'l' lower, 0 unsaid */
    struct row rows[kMaxRows];
    int n;
};

/* Copies s normalised: leading and trailing blanks dropped, inner runs of
 * blanks made one. */
static void normalise(const char *s, size_t len, char *out, size_t size) {
    size_t n = 0;
    int blank = 0;
    for (size_t i = 0; i < len && n + 1 < size; ++i) {
        if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
            blank = n > 0;
            continue;
        }
        if (blank && n + 2 < size) {
            out[n++] = ' ';
        }
        blank = 0;
        out[n++] = s[i];
    }
    out[n] = '\0';
}

/* Printable text only: no control characters, valid enough to print. */
static int printable(const char *s) {
    for (; *s; ++s) {
        if ((unsigned char)*s < 0x20 || *s == 0x7f) {
            return 0;
        }
    }
    return 1;
}

static int spec_error(const struct spec *sp, long line, const char *msg,
                      const char *arg) {
    nw_error(sp->path, line, "%s%s", msg, arg ? arg : "");
    return -1;
}

/* Room for one more row; NULL, said at line no, where there is none. */
static struct row *new_row(struct spec *sp, long no) {
    if (sp->n == kMaxRows) {
        spec_error(sp, no, "too many rows for one chart", NULL);
        return NULL;
    }
    struct row *r = &sp->rows[sp->n++];
    r->spec_line = no;
    return r;
}

/* A hole's name, as an expectation spells it: [a-z][a-z0-9_]*. */
static int is_hole_name(const char *s, size_t n) {
    if (n == 0 || *s < 'a' || *s > 'z') {
        return 0;
    }
    for (size_t i = 1; i < n; ++i) {
        if (!(islower((unsigned char)s[i]) || isdigit((unsigned char)s[i]) ||
              s[i] == '_')) {
            return 0;
        }
    }
    return 1;
}

/* bar NAME TEXT and ref NAME TEXT: the value of the named hole NAME, drawn
 * as TEXT. */
static int parse_row(struct spec *sp, const char *key, char *rest, long no) {
    size_t n = strcspn(rest, " \t");
    char text[kMaxText];
    normalise(rest + n, strlen(rest + n), text, sizeof text);
    if (!is_hole_name(rest, n) || text[0] == '\0') {
        nw_error(sp->path, no,
                 "%s wants the name of a hole of the program's expectation "
                 "and the text the chart gives its bar, e.g. \"%s copy_gbs "
                 "copy, no scan\" for {{float:copy_gbs}}",
                 key, key);
        return -1;
    }
    struct row *r = new_row(sp, no);
    if (r == NULL) {
        return -1;
    }
    r->kind = key[0] == 'b' ? ROW_BAR : ROW_REF;
    snprintf(r->name, sizeof r->name, "%.*s", (int)n, rest);
    snprintf(r->label, sizeof r->label, "%s", text);
    return 0;
}

/* group TEXT: the rows after it, under its heading. */
static int parse_group(struct spec *sp, const char *key, char *rest,
                       long no) {
    (void)key;
    char text[kMaxText];
    normalise(rest, strlen(rest), text, sizeof text);
    if (text[0] == '\0') {
        return spec_error(sp, no, "group names no text", NULL);
    }
    struct row *r = new_row(sp, no);
    if (r == NULL) {
        return -1;
    }
    r->kind = ROW_GROUP;
    snprintf(r->label, sizeof r->label, "%s", text);
    return 0;
}

/* title, unit: a text of the chart's. */
static int parse_text(struct spec *sp, const char *key, char *rest, long no) {
    (void)no;
    normalise(rest, strlen(rest), key[0] == 't' ? sp->title : sp->unit,
              kMaxText);
    return 0;
}

static int parse_better(struct spec *sp, const char *key, char *rest,
                        long no) {
    (void)key;
    char text[kMaxText];
    normalise(rest, strlen(rest), text, sizeof text);
    if (strcmp(text, "higher") != 0 && strcmp(text, "lower") != 0) {
        return spec_error(sp, no, "better is \"higher\" or \"lower\"", NULL);
    }
    sp->better = text[0];
    return 0;
}

/* The directives of a spec, each with its parser: a new one is a line
 * here and its function. */
static const struct directive {
    const char *name;
    int (*parse)(struct spec *sp, const char *key, char *rest, long no);
} kDirectives[] = {
    {"title", parse_text},    {"unit", parse_text},  {"better", parse_better},
    {"group", parse_group},   {"bar", parse_row},    {"ref", parse_row},
};

/* One line of the spec, numbered no. */
static int parse_line(struct spec *sp, char *line, long no) {
    char *s = line + strspn(line, " \t");
    if (*s == '#' || *s == '\0') {
        return 0;
    }
    size_t klen = strcspn(s, " \t");
    char *rest = s + klen;
    rest += strspn(rest, " \t");
    s[klen] = '\0';
    if (strlen(rest) >= kMaxText - 1) {
        return spec_error(sp, no, "the text is too long", NULL);
    }
    for (size_t i = 0; i < sizeof kDirectives / sizeof kDirectives[0]; ++i) {
        if (strcmp(s, kDirectives[i].name) == 0) {
            return kDirectives[i].parse(sp, s, rest, no);
        }
    }
    return spec_error(sp, no, "unknown directive: ", s);
}

/* A spec says what to draw. */
static int check_spec(struct spec *sp, long last) {
    if (sp->title[0] == '\0') {
        return spec_error(sp, 1, "no title line", NULL);
    }
    int bars = 0;
    for (int i = 0; i < sp->n; ++i) {
        bars += sp->rows[i].kind != ROW_GROUP;
    }
    if (bars == 0) {
        return spec_error(sp, last, "no bar or ref line: nothing to draw",
                          NULL);
    }
    return 0;
}

static int read_spec(const char *path, struct spec *sp) {
    memset(sp, 0, sizeof *sp);
    sp->path = path;
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        nw_error(path, 0, "cannot read");
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long no = 0;
    int status = 0;
    while (status == 0 && (len = getline(&line, &cap, f)) != -1) {
        ++no;
        if (len > 0 && line[len - 1] == '\n') {
            line[--len] = '\0';
        }
        if ((size_t)len != strlen(line) || !printable(line)) {
            status = spec_error(sp, no, "not a line of text", NULL);
        } else {
            status = parse_line(sp, line, no);
        }
    }
    free(line);
    fclose(f);
    return status == 0 ? check_spec(sp, no) : status;
}

/* ------------------------------------------------------------------ */

/* What the chart says of its transcript: the GPU and the date of its
 * header, read with tcheck's reader (tools/evidence/transcript.h),
 * normalised. */
struct recording {
    char gpu[kMaxText], date[kMaxText];
};

/* A header value, normalised; "" where it is missing. */
static void header_text(const struct transcript *tr, const char *key,
                        char *out, size_t size) {
    size_t n;
    const char *v = transcript_value(tr, key, &n);
    normalise(v ? v : "", v ? n : 0, out, size);
}

static int read_recording(const char *path, struct recording *t) {
    memset(t, 0, sizeof *t);
    struct transcript *tr = transcript_read(path);
    if (tr == NULL) {
        return -1;
    }
    header_text(tr, "gpu", t->gpu, sizeof t->gpu);
    header_text(tr, "date", t->date, sizeof t->date);
    if (!printable(t->gpu) || !printable(t->date)) {
        t->gpu[0] = t->date[0] = '\0';
    }
    transcript_free(tr);
    return 0;
}

/* PROG of evidence/PROG.chart and GPU of build/values/PROG/GPU.tsv, the
 * names the values read are filed under, into out (size bytes). */
static void base_name(const char *path, const char *suffix, char *out,
                      size_t size) {
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b), k = strlen(suffix);
    if (n > k && strcmp(b + n - k, suffix) == 0) {
        n -= k;
    }
    snprintf(out, size, "%.*s", (int)n, b);
}

/* The name of vs closest to name, for "did you mean"; NULL where none is
 * within three edits. */
static const char *closest(const struct nw_values *vs, const char *name) {
    const char *best = NULL;
    size_t best_d = 4;
    for (size_t i = 0; i < vs->n; ++i) {
        size_t d = nw_edit_distance(name, vs->v[i].name);
        if (d < best_d) {
            best_d = d;
            best = vs->v[i].name;
        }
    }
    return best;
}

/* Each row's value: the named hole's, from the values file at path. */
static int find_values(struct spec *sp, const char *path,
                       struct nw_values *vs) {
    char prog[kMaxText], gpu[kMaxText];
    base_name(sp->path, ".chart", prog, sizeof prog);
    base_name(path, ".tsv", gpu, sizeof gpu);
    if (nw_values_read(vs, path, prog, gpu) != 0) {
        return -1;
    }
    int status = 0;
    for (int r = 0; r < sp->n; ++r) {
        struct row *row = &sp->rows[r];
        if (row->kind == ROW_GROUP) {
            continue;
        }
        const struct nw_value *v = nw_values_find(vs, prog, row->name, gpu);
        if (v == NULL) {
            const char *near = closest(vs, row->name);
            nw_error(sp->path, row->spec_line,
                     "no value named %s in %s: name a hole of "
                     "evidence/%s.expect by its name, NAME of "
                     "{{float:NAME}}%s%s%s",
                     row->name, path, prog, near ? "; did you mean " : "",
                     near ? near : "", near ? "?" : "");
            status = -1;
        } else if (!v->finite || v->v < 0) {
            nw_error(sp->path, row->spec_line,
                     "%s is %s (%s): a bar is a number from zero; name a "
                     "measured hole, {{ms}}, {{float}} or {{int}}",
                     row->name, v->text, v->source);
            status = -1;
        } else {
            row->value = v->text;
            row->v = v->v;
        }
    }
    return status;
}

static void subtitle(const struct spec *sp, const struct recording *t,
                     char *out, size_t size) {
    snprintf(out, size, "%s%s%s%s%s", t->gpu[0] ? t->gpu : "",
             t->gpu[0] && t->date[0] ? ", " : "", t->date,
             sp->better && (t->gpu[0] || t->date[0]) ? "; " : "",
             sp->better == 'h'   ? "longer bars are better"
             : sp->better == 'l' ? "shorter bars are better"
                                    : "");
}

/* The largest value a bar draws, the axis's reach; 1 where none is above
 * zero. */
static double largest(const struct spec *sp) {
    double max = 0;
    for (int r = 0; r < sp->n; ++r) {
        if (sp->rows[r].kind != ROW_GROUP && sp->rows[r].v > max) {
            max = sp->rows[r].v;
        }
    }
    return max > 0 ? max : 1;
}

/* The x axis from 0 to top with at most most tics, each a step of 1, 2 or
 * 5 times a power of ten: gnuplot's own choice can set so many that their
 * numbers run together on a chart whose names leave its bars little room. */
static void put_xrange(double top, int most) {
    printf("set xrange [0:%.6g]\n", top);
    double raw = top / most, ten = 1;
    while (ten * 10 <= raw) {
        ten *= 10;
    }
    while (ten > raw) {
        ten /= 10;
    }
    double step = ten;
    for (int k = 0; k < 3 && step < raw; ++k) {
        step = ten * (double[]){2, 5, 10}[k];
    }
    printf("set xtics %.6g\n", step);
}

/* The chart's size, title, subtitle and axes. */
static void gnuplot_frame(const struct spec *sp, const struct recording *t) {
    double max = largest(sp);
    int height = kChrome + kRowHeight * sp->n;
    /* Wider than kWidth where the row names are long, so that the bars
     * keep room for the axis and their values (about 8 px a character). */
    size_t longest = 0;
    for (int r = 0; r < sp->n; ++r) {
        size_t len = strlen(sp->rows[r].label);
        longest = len > longest ? len : longest;
    }
    int width = (int)longest * 8 + 460;
    width = width < kWidth ? kWidth : width;
    printf("# Drawn by chart from %s and the transcript; do not edit.\n",
           sp->path);
    printf("set terminal svg size %d,%d dynamic font \"sans,13\" "
           "background rgb \"white\"\n", width, height);
    printf("set termoption noenhanced\nset encoding utf8\n");
    /* The title and the line under it, flush left over the whole chart, so
     * that a long title is not cut at the right. */
    printf("set tmargin 5\nset label 1 ");
    nw_put_dquoted(stdout, sp->title);
    printf(" at screen 0.02, screen 1 offset 0,-1.3 left font \"sans,15\" "
           "textcolor rgb \"#000000\"\n");
    char sub[3 * kMaxText];
    subtitle(sp, t, sub, sizeof sub);
    if (sub[0] != '\0') {
        printf("set label 2 ");
        nw_put_dquoted(stdout, sub);
        printf(" at screen 0.02, screen 1 offset 0,-2.8 left font \"sans,11\" "
               "textcolor rgb \"#555555\"\n");
    }
    printf("set xlabel ");
    nw_put_dquoted(stdout, sp->unit[0] ? sp->unit : "value");
    printf("\nunset key\nset border 3 lc rgb \"#888888\"\n"
           "set xtics nomirror out textcolor rgb \"#333333\"\n"
           "set ytics nomirror scale 0 textcolor rgb \"#222222\"\n"
           "set grid xtics lc rgb \"#e4e4e4\" lt 1\n"
           "set style fill solid 0.9 noborder\n"
           "set style textbox opaque fillcolor rgb \"white\" noborder "
           "margins 1,0\n"
           "set offsets 0, 0, 0, 0\n");
    /* A margin on the right for the last bar's value. */
    put_xrange(max * 1.16, 6);
}

/* A group's heading, larger, flush with the left of the names. */
static void mark_group(const struct spec *sp, int r, int n) {
    printf("set label %d ", n);
    nw_put_dquoted(stdout, sp->rows[r].label);
    printf(" at screen 0.02, first %d left font \"sans,14\" "
           "textcolor rgb \"#000000\" front\n", r);
}

/* A reference: a dashed line across the rows of its group, under the
 * texts it crosses (each in an opaque box, set style textbox). */
static void mark_ref(const struct spec *sp, int r, int n) {
    int lo = r, hi = r;
    while (lo > 0 && sp->rows[lo - 1].kind != ROW_GROUP) {
        --lo;
    }
    while (hi + 1 < sp->n && sp->rows[hi + 1].kind != ROW_GROUP) {
        ++hi;
    }
    printf("set arrow %d from %s, %d.5 to %s, %g nohead dt 2 lw 1.5 "
           "lc rgb \"#b04a00\" back\n",
           n, sp->rows[r].value, hi, sp->rows[r].value, lo - 0.5);
}

/* How each kind of row is drawn: a new kind is an entry here, its
 * directive in kDirectives, and the functions they name. drawn: in the
 * bars' data, in the colour of style (0 a bar, 1 a reference); label and
 * line: what it adds as a gnuplot label and as an arrow (all labels come
 * first, numbered from 3; then the arrows, from 1). */
static const struct row_style {
    int drawn, style;
    void (*label)(const struct spec *sp, int r, int n);
    void (*line)(const struct spec *sp, int r, int n);
} kRowStyles[] = {
    [ROW_BAR] = {1, 0, NULL, NULL},
    [ROW_REF] = {1, 1, NULL, mark_ref},
    [ROW_GROUP] = {0, 0, mark_group, NULL},
};

/* The rows' lines (a reference's dashed line), their data and the plot:
 * each bar from TOP to BOTTOM about its row's y, its value at TEXT. */
static void gnuplot_bars(const struct spec *sp, double top, double bottom,
                         double text) {
    int arrow = 1;
    for (int r = 0; r < sp->n; ++r) {
        if (kRowStyles[sp->rows[r].kind].line) {
            kRowStyles[sp->rows[r].kind].line(sp, r, arrow++);
        }
    }
    printf("$rows << EOD\n");
    for (int r = 0; r < sp->n; ++r) {
        const struct row *row = &sp->rows[r];
        if (kRowStyles[row->kind].drawn) {
            printf("%d %s %d %s\n", r, row->value,
                   kRowStyles[row->kind].style, row->value);
        }
    }
    printf("EOD\n");
    for (int style = 0; style < 2; ++style) {
        printf("%s $rows using ($3 == %d ? $2 : NaN):1:(0):2:($1 %+g):"
               "($1 %+g) with boxxyerror lc rgb \"%s\", \\\n",
               style ? "    " : "plot", style, top, bottom,
               style ? "#b9b9b9" : "#3b6ea5");
    }
    printf("     $rows using 2:($1 %+g):(stringcolumn(4)) with labels boxed left "
           "offset 0.5,0 textcolor rgb \"#222222\"\n", text);
}

/* The rows: their names on the axis, their marks, their bars. */
static void gnuplot_rows(const struct spec *sp) {
    printf("set yrange [%d.5:-0.5]\n", sp->n - 1);
    printf("set ytics (");
    for (int r = 0; r < sp->n; ++r) {
        printf("%s", r ? ", " : "");
        nw_put_dquoted(stdout, kRowStyles[sp->rows[r].kind].drawn
                                   ? sp->rows[r].label
                                   : "");
        printf(" %d", r);
    }
    printf(")\n");
    int label = 3;
    for (int r = 0; r < sp->n; ++r) {
        if (kRowStyles[sp->rows[r].kind].label) {
            kRowStyles[sp->rows[r].kind].label(sp, r, label++);
        }
    }
    gnuplot_bars(sp, -0.32, 0.32, 0);
}

static void gnuplot(const struct spec *sp, const struct recording *t) {
    gnuplot_frame(sp, t);
    gnuplot_rows(sp);
}

/* Break S at blanks into lines of at most WIDTH characters (a longer word
 * is a line of its own), at most MAX of them: returns how many. */
static int wrap(const char *s, int width, char (*line)[kMaxText], int max) {
    int n = 0;
    while (*s && n < max) {
        size_t len = strlen(s), cut = len;
        if (len > (size_t)width) {
            cut = (size_t)width;
            while (cut > 0 && s[cut] != ' ') {
                --cut;
            }
            if (cut == 0) {
                cut = strcspn(s, " ");
            }
        }
        snprintf(line[n++], kMaxText, "%.*s", (int)cut, s);
        s += cut;
        while (*s == ' ') {
            ++s;
        }
    }
    return n;
}

/* Lines of text over the plot, one label each, centred at Y pixels from
 * the top of a chart HEIGHT pixels tall, STEP apart. */
static int put_lines(char (*line)[kMaxText], int n, int label, double y,
                     int step, int height, int font, const char *colour) {
    for (int i = 0; i < n; ++i) {
        printf("set label %d ", label++);
        nw_put_dquoted(stdout, line[i]);
        printf(" at screen 0.03, screen %.4f left font \"sans,%d\" "
               "textcolor rgb \"%s\"\n",
               1.0 - (y + i * step) / height, font, colour);
    }
    return label;
}

/* The narrow chart: title and subtitle wrapped over the plot, each row's
 * name on a line of its own above its bar, the values after the bars. */
static void narrow(const struct spec *sp, const struct recording *t) {
    double max = largest(sp);
    enum { kLines = 8, kTitleStep = 20, kSubStep = 16, kAxis = 76 };
    char title[kLines][kMaxText], sub[kLines][kMaxText];
    char subtext[3 * kMaxText];
    subtitle(sp, t, subtext, sizeof subtext);
    int tl = wrap(sp->title, kNarrowTitle, title, kLines);
    int sl = wrap(subtext, kNarrowSub, sub, kLines);
    int top = 12 + kTitleStep * tl + kSubStep * sl + 16;
    int height = top + kNarrowRow * sp->n + kAxis;
    printf("# Drawn by chart from %s and the transcript; do not edit.\n",
           sp->path);
    printf("set terminal svg size %d,%d dynamic font \"sans,13\" "
           "background rgb \"white\"\n", kNarrowWidth, height);
    printf("set termoption noenhanced\nset encoding utf8\n");
    int label = put_lines(title, tl, 1, 12 + kTitleStep / 2, kTitleStep,
                          height, 15, "#000000");
    label = put_lines(sub, sl, label, 12 + kTitleStep * tl + kSubStep / 2,
                      kSubStep, height, kNarrowFont, "#555555");
    printf("set tmargin at screen %.4f\nset bmargin at screen %.4f\n"
           "set lmargin at screen 0.03\nset rmargin at screen 0.97\n",
           1.0 - (double)top / height, (double)kAxis / height);
    printf("set xlabel ");
    nw_put_dquoted(stdout, sp->unit[0] ? sp->unit : "value");
    printf(" font \"sans,%d\"\nunset key\nunset ytics\n"
           "set border 1 lc rgb \"#888888\"\n"
           "set xtics nomirror out font \"sans,%d\" textcolor rgb \"#333333\"\n"
           "set grid xtics lc rgb \"#e4e4e4\" lt 1\n"
           "set style fill solid 0.9 noborder\n"
           "set style textbox opaque fillcolor rgb \"white\" noborder "
           "margins 1,0\n"
           "set offsets 0, 0, 0, 0\n", kNarrowFont, kNarrowFont);
    /* Room on the right for the longest bar's value. */
    put_xrange(max * 1.3, 4);
    printf("set yrange [%d.5:-0.5]\n", sp->n - 1);
    for (int r = 0; r < sp->n; ++r) {
        const struct row *row = &sp->rows[r];
        printf("set label %d ", label++);
        nw_put_dquoted(stdout, row->label);
        if (row->kind == ROW_GROUP) {
            printf(" at graph 0, first %d left font \"sans,14\" "
                   "textcolor rgb \"#000000\" boxed front\n", r);
        } else {
            printf(" at graph 0, first %.2f left textcolor rgb \"#222222\" "
                   "boxed front\n", r - 0.22);
        }
    }
    gnuplot_bars(sp, 0.02, 0.38, 0.2);
}

/* The caption: the chart's title, its GPU, and how to read it. */
static void caption(const struct spec *sp, const struct recording *t,
                    char *out, size_t size) {
    const char *ref = NULL;
    for (int r = 0; r < sp->n && ref == NULL; ++r) {
        if (sp->rows[r].kind == ROW_REF) {
            ref = sp->rows[r].label;
        }
    }
    snprintf(out, size, "%s%s%s. Drawn from its transcript, shown in full under "
             "Building and running, each bar "
             "one recorded value%s%s.", sp->title, t->gpu[0] ? ", " : "",
             t->gpu, ref ? "; the grey bar and the dashed line are the "
                           "reference, " : "", ref ? ref : "");
}

static void figure(const struct spec *sp, const struct recording *t,
                   const char *image, const char *narrow_image) {
    char text[6 * kMaxText];
    caption(sp, t, text, sizeof text);
    /* A phone's width, as the style sheet has it; in print the wide one. */
    printf("```{=html}\n<figure>\n<picture>\n"
           "<source media=\"screen and (max-width: 45.99rem)\" srcset=\"");
    nw_put_url(stdout, narrow_image, "/");
    printf("\">\n<img src=\"");
    nw_put_url(stdout, image, "/");
    printf("\" class=\"chart\" alt=\"");
    nw_put_html(stdout, text);
    printf("\">\n</picture>\n<figcaption aria-hidden=\"true\">");
    nw_put_html(stdout, text);
    printf("</figcaption>\n</figure>\n```\n\n");
}

int main(int argc, char **argv) {
    int gp = argc == 5 && strcmp(argv[1], "gnuplot") == 0;
    int nar = argc == 5 && strcmp(argv[1], "narrow") == 0;
    int fig = argc == 7 && strcmp(argv[1], "figure") == 0;
    if (!gp && !nar && !fig) {
        fprintf(stderr,
                "usage: %s gnuplot SPEC TRANSCRIPT VALUES > chart.gp\n"
                "       %s narrow SPEC TRANSCRIPT VALUES > narrow.gp\n"
                "       %s figure SPEC TRANSCRIPT VALUES IMAGE NARROW > "
                "figure.md\n",
                argv[0], argv[0], argv[0]);
        return 2;
    }
    struct spec sp;
    struct recording t;
    if (read_spec(argv[2], &sp) != 0 || read_recording(argv[3], &t) != 0) {
        return 1;
    }
    struct nw_values vs = {0};
    int status = find_values(&sp, argv[4], &vs) != 0;
    if (status == 0) {
        if (gp) {
            gnuplot(&sp, &t);
        } else if (nar) {
            narrow(&sp, &t);
        } else {
            figure(&sp, &t, argv[5], argv[6]);
        }
    }
    nw_values_free(&vs);
    return status | nw_flush_stdout("chart");
}
