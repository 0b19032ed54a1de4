// svg.hpp: what the book's figures draw with.
//
// A figure is a chapter's root fig-NAME.cpp: a host C++17 program that
// includes the chapter's own constants (so that the picture follows the
// code) and writes an SVG to stdout, which make puts at html/fig/NAME.svg
// (README.md, "Figures"). This header is the part the figures share: an
// SVG that scales to the text column, with one palette readable in both
// themes, and a handful of shapes. A figure's own code says what it draws.
//
//     int main() {
//         fig::Svg svg(640, 200, "Title", "What the figure shows, in words.");
//         svg.rect(10, 10, 40, 40, "fill-0");
//         svg.text(30, 38, "A", "ink", fig::Middle);
//         return svg.end();
//     }
//
// The SVG has a viewBox and no width, so it takes the column's width; on a
// phone the column is about 320 px, so text must be at least kMinFont
// units high for every 640 units of width to stay legible (tests/book.sh
// checks it). The palette is a set of classes, each a colour for the light
// theme and one for the dark (prefers-color-scheme), on the figure's own
// background: "ink" and "muted" text reach 4.5:1 on the background and on
// every fill; "line" draws in the ink's colour.
#ifndef BOOK_FIGURE_SVG_HPP
#define BOOK_FIGURE_SVG_HPP

#include <cstdio>
#include <cstdlib>
#include <string>

// Chapter code that runs on both sides is marked __host__ __device__; a
// figure compiles it with the host compiler, where the markers mean nothing.
#ifndef __CUDACC__
#define __host__
#define __device__
#endif

namespace fig {

// The smallest font size, in units, for a figure 640 units wide.
constexpr double kMinFont = 20;

enum Anchor { Start, Middle, End };

class Svg {
  public:
    // width and height in the figure's units; title and desc are what a
    // reader without the picture gets (a screen reader, a text browser).
    Svg(double width, double height, const std::string& title,
        const std::string& desc) {
        std::printf(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %g %g\" "
            "role=\"img\" aria-labelledby=\"title desc\" "
            "font-family=\"DejaVu Sans, Noto Sans, sans-serif\">\n",
            width, height);
        std::printf("<title id=\"title\">%s</title>\n", escape(title).c_str());
        std::printf("<desc id=\"desc\">%s</desc>\n", escape(desc).c_str());
        std::fputs(kStyle, stdout);
        std::printf("<rect class=\"bg\" x=\"0\" y=\"0\" width=\"%g\" "
                    "height=\"%g\"/>\n",
                    width, height);
    }

    // A box filled with one of the palette's classes (fill-0 to fill-4,
    // box for an outline only).
    void rect(double x, double y, double w, double h, const char* cls) {
        std::printf("<rect class=\"%s\" x=\"%g\" y=\"%g\" width=\"%g\" "
                    "height=\"%g\"/>\n",
                    cls, x, y, w, h);
    }

    // Text whose baseline starts at (x, y), or is centred or ends there.
    void text(double x, double y, const std::string& s, const char* cls,
              Anchor anchor = Start, double size = kMinFont + 2) {
        static const char* const kAnchors[] = {"start", "middle", "end"};
        std::printf("<text class=\"%s\" x=\"%g\" y=\"%g\" font-size=\"%g\" "
                    "text-anchor=\"%s\">%s</text>\n",
                    cls, x, y, size, kAnchors[anchor], escape(s).c_str());
    }

    // A line, or with an arrowhead at its end.
    void line(double x1, double y1, double x2, double y2,
              const char* cls = "line") {
        std::printf("<line class=\"%s\" x1=\"%g\" y1=\"%g\" x2=\"%g\" "
                    "y2=\"%g\"/>\n",
                    cls, x1, y1, x2, y2);
    }
    void arrow(double x1, double y1, double x2, double y2) {
        std::printf("<line class=\"line\" x1=\"%g\" y1=\"%g\" x2=\"%g\" "
                    "y2=\"%g\" marker-end=\"url(#head)\"/>\n",
                    x1, y1, x2, y2);
    }

    // Closes the figure; main returns what this returns, so that a figure
    // whose output could not be written fails.
    int end() {
        std::fputs("</svg>\n", stdout);
        return (std::fflush(stdout) == 0 && !std::ferror(stdout))
                   ? EXIT_SUCCESS
                   : EXIT_FAILURE;
    }

  private:
    static std::string escape(const std::string& s) {
        std::string out;
        for (const char c : s) {
            switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
            }
        }
        return out;
    }

    // The book's page colours (styles/book.css) as the background and the
    // ink; the fills are tints light in the light theme and dark in the
    // dark one: in both themes the ink reads over 8:1 and the muted text
    // over 4.5:1, on the background and on every fill.
    static constexpr const char* kStyle =
        "<defs><marker id=\"head\" viewBox=\"0 0 10 10\" refX=\"9\" "
        "refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
        "orient=\"auto-start-reverse\"><path class=\"head\" "
        "d=\"M0,0 L10,5 L0,10 z\"/></marker></defs>\n"
        "<style>\n"
        ".bg { fill: #fdfdfb; }\n"
        ".ink { fill: #1f2328; }\n"
        ".muted { fill: #4f5963; }\n"
        ".line, .box, .mark { stroke: #1f2328; stroke-width: 2; }\n"
        ".line { fill: none; }\n"
        ".box { fill: none; }\n"
        ".mark { fill: none; stroke-width: 4; }\n"
        ".head { fill: #1f2328; }\n"
        ".fill-0 { fill: #d6e6f8; stroke: #1f2328; }\n"
        ".fill-1 { fill: #fde0c2; stroke: #1f2328; }\n"
        ".fill-2 { fill: #d3efd7; stroke: #1f2328; }\n"
        ".fill-3 { fill: #ecd9f5; stroke: #1f2328; }\n"
        ".fill-4 { fill: #f6cccc; stroke: #1f2328; }\n"
        ".dash { stroke-dasharray: 6 4; }\n"
        "@media (prefers-color-scheme: dark) {\n"
        "  .bg { fill: #16181b; }\n"
        "  .ink { fill: #e4e6e9; }\n"
        "  .muted { fill: #b0b8c0; }\n"
        "  .line, .box, .mark { stroke: #e4e6e9; }\n"
        "  .head { fill: #e4e6e9; }\n"
        "  .fill-0 { fill: #1c3857; stroke: #e4e6e9; }\n"
        "  .fill-1 { fill: #56320f; stroke: #e4e6e9; }\n"
        "  .fill-2 { fill: #1d4527; stroke: #e4e6e9; }\n"
        "  .fill-3 { fill: #43275a; stroke: #e4e6e9; }\n"
        "  .fill-4 { fill: #5e1f1f; stroke: #e4e6e9; }\n"
        "}\n"
        "</style>\n";
};

}  // namespace fig

#endif
