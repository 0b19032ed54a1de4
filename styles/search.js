/* The book's script: search across the book, and the page's own small
 * helps (the second function below). The page works without it.
 *
 * Search, in the browser, from the built files.
 *
 * The box in the page's navigation is hidden until this script runs, so a
 * reader without scripts sees no box that does nothing. On first use it
 * loads lunr.min.js and search-index.js (window.BOOK_INDEX, written by
 * nwsearch) from the page's own folder, which works from file:// and needs
 * no server, and builds the index. Results are made with textContent and
 * never as HTML.
 */
(function () {
  'use strict';

  var kMaxResults = 12;   // a screenful; the box is for finding, not browsing
  var kExcerpt = 160;     // characters of text around the first match

  var box = document.getElementById('search-box');
  var list = document.getElementById('search-results');
  var status = document.getElementById('search-status');
  var form = document.getElementById('search');
  if (!box || !list || !form) {
    return;
  }
  form.hidden = false;

  var index = null;
  var docs = null;
  var loading = null;

  function load(src) {
    return new Promise(function (resolve, reject) {
      var s = document.createElement('script');
      s.src = src;
      s.onload = resolve;
      s.onerror = function () { reject(new Error('cannot load ' + src)); };
      document.head.appendChild(s);
    });
  }

  function ready() {
    if (!loading) {
      var lunrReady = window.lunr ? Promise.resolve() : load('lunr.min.js');
      loading = lunrReady
        .then(function () {
          return window.BOOK_INDEX ? null : load('search-index.js');
        })
        .then(function () {
          docs = window.BOOK_INDEX.docs;
          index = window.lunr(function () {
            // Code is searched by its words as written: no stemming, and a
            // word typed matches the words it begins.
            this.pipeline.remove(window.lunr.stemmer);
            this.searchPipeline.remove(window.lunr.stemmer);
            this.ref('i');
            this.field('t', { boost: 8 });
            this.field('b');
            this.metadataWhitelist = ['position'];
            for (var i = 0; i < docs.length; i++) {
              this.add({ i: String(i), t: docs[i].t, b: docs[i].b });
            }
          });
        });
    }
    return loading;
  }

  // Every word the reader typed must appear, as a word or the start of one;
  // no lunr query syntax, so nothing the reader types is an error.
  function search(text) {
    var lunr = window.lunr;
    var words = lunr.tokenizer(text).map(function (t) {
      t = lunr.trimmer(t);
      return t && lunr.stopWordFilter(t);
    }).filter(Boolean).map(String).filter(Boolean);
    if (words.length === 0) {
      return [];
    }
    return index.query(function (q) {
      words.forEach(function (w) {
        q.term(w, { presence: lunr.Query.presence.REQUIRED,
                    wildcard: lunr.Query.wildcard.TRAILING,
                    usePipeline: false });
      });
    });
  }

  // The text around the first match, cut at word boundaries, as three
  // parts: before, the match, after.
  function excerpt(doc, result) {
    var body = doc.b;
    var at = -1, len = 0;
    var md = result.matchData.metadata;
    for (var term in md) {
      var pos = md[term].b && md[term].b.position;
      if (pos && (at < 0 || pos[0][0] < at)) {
        at = pos[0][0];
        len = pos[0][1];
      }
    }
    if (at < 0) {
      var cut = body.length > kExcerpt ? body.lastIndexOf(' ', kExcerpt) : -1;
      return [body.slice(0, cut > 0 ? cut : kExcerpt) + (cut > 0 ? ' \u2026' : ''), '', ''];
    }
    var from = Math.max(0, at - kExcerpt / 3);
    if (from > 0) {
      var space = body.indexOf(' ', from);
      from = space >= 0 && space < at ? space + 1 : at;
    }
    var to = Math.min(body.length, at + len + kExcerpt * 2 / 3);
    if (to < body.length) {
      var end = body.lastIndexOf(' ', to);
      to = end > at + len ? end : to;
    }
    return [(from > 0 ? '\u2026 ' : '') + body.slice(from, at),
            body.slice(at, at + len),
            body.slice(at + len, to) + (to < body.length ? ' \u2026' : '')];
  }

  function show(results) {
    list.textContent = '';
    results.slice(0, kMaxResults).forEach(function (r) {
      var doc = docs[Number(r.ref)];
      var li = document.createElement('li');
      var a = document.createElement('a');
      a.href = doc.u;
      var title = document.createElement('span');
      title.className = 'result-title';
      title.textContent = doc.t;
      a.appendChild(title);
      if (doc.k === 'chunk' || doc.t !== doc.p) {
        var where = document.createElement('span');
        where.className = 'result-page';
        where.textContent = (doc.k === 'chunk' ? 'code in ' : '') + doc.p;
        a.appendChild(where);
      }
      li.appendChild(a);
      var parts = excerpt(doc, r);
      var p = document.createElement('span');
      p.className = 'result-text';
      p.appendChild(document.createTextNode(parts[0]));
      if (parts[1]) {
        var m = document.createElement('mark');
        m.textContent = parts[1];
        p.appendChild(m);
      }
      p.appendChild(document.createTextNode(parts[2]));
      li.appendChild(p);
      list.appendChild(li);
    });
    var n = results.length;
    status.textContent = box.value.trim() === '' ? '' :
      n === 0 ? 'Nothing found.' :
      n > kMaxResults ? kMaxResults + ' of ' + n + ' matches' :
      n + (n === 1 ? ' match' : ' matches');
  }

  function update() {
    ready().then(function () {
      show(box.value.trim() === '' ? [] : search(box.value));
    }, function (err) {
      status.textContent = 'Search is not available: ' + err.message;
    });
  }

  box.addEventListener('focus', function () { ready(); });
  box.addEventListener('input', update);
  form.addEventListener('submit', function (e) {
    e.preventDefault();
    var first = list.querySelector('a');
    if (first) {
      window.location.href = first.href;
    }
  });
  box.addEventListener('keydown', function (e) {
    if (e.key === 'Escape') {
      box.value = '';
      show([]);
    }
  });
  // Arriving with ?q=words (from a bookmark) searches at once.
  var q = new URLSearchParams(window.location.search).get('q');
  if (q) {
    box.value = q;
    update();
  }
})();

/* The page: nothing here is needed to read it.
 *
 * - Each transcript gets --cols, its widest line in characters, from which
 *   book.css sizes it to fit its column and the printed page.
 * - The navigation, opened over the text on a narrow screen, closes when
 *   one of its links is followed within the page, and on Escape.
 * - The left and right arrow keys go to the previous and next chapter,
 *   unless the focus is where the arrows already mean something (a text
 *   field, or a box that scrolls sideways) or a modifier is held.
 */
(function () {
  'use strict';

  Array.prototype.forEach.call(document.querySelectorAll('pre.transcript'), function (pre) {
    var cols = 0;
    pre.textContent.split('\n').forEach(function (line) {
      cols = Math.max(cols, Array.from(line).length);
    });
    pre.style.setProperty('--cols', String(cols));
  });

  var toggle = document.getElementById('nav-toggle');
  var nav = document.querySelector('nav.book-nav');
  if (toggle && nav) {
    nav.addEventListener('click', function (e) {
      var a = e.target.closest && e.target.closest('a[href]');
      if (a && toggle.checked && a.pathname === window.location.pathname) {
        toggle.checked = false;
      }
    });
    document.addEventListener('keydown', function (e) {
      if (e.key === 'Escape' && toggle.checked) {
        toggle.checked = false;
      }
    });
  }

  function arrowsTaken(el) {
    for (; el && el !== document.body; el = el.parentElement) {
      if (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName)) {
        return true;
      }
      if (el.scrollWidth > el.clientWidth &&
          /auto|scroll/.test(getComputedStyle(el).overflowX)) {
        return true;
      }
    }
    return false;
  }
  document.addEventListener('keydown', function (e) {
    if ((e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') || e.defaultPrevented ||
        e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || arrowsTaken(document.activeElement)) {
      return;
    }
    var link = document.querySelector(e.key === 'ArrowLeft' ? 'a[rel~="prev"]' : 'a[rel~="next"]');
    if (link) {
      e.preventDefault();
      window.location.href = link.href;
    }
  });
})();
