// make preview's script, which serve.py adds to every page it serves (the
// built pages hold no trace of it). It follows the server's events, each
// the state of the book: the build the pages are of and the error of the
// last build. A page of another build than its own reloads, which brings
// the reader back to the same place; an error shows over the page, which
// stays as it is, and goes when a build succeeds.
(() => {
  'use strict';
  const mine = new URL(document.currentScript.src).searchParams.get('g');
  let box = null;
  const show = (error) => {
    if (!error) {
      if (box) box.remove();
      box = null;
      return;
    }
    if (!box) {
      box = document.createElement('div');
      box.id = 'preview-error';
      box.setAttribute('role', 'alert');
      Object.assign(box.style, {
        position: 'fixed', top: '0', left: '0', right: '0', zIndex: '2147483647',
        maxHeight: '50vh', overflow: 'auto', margin: '0', padding: '0.75em 1em',
        background: '#8b0000', color: '#fff', font: '14px/1.4 monospace', whiteSpace: 'pre-wrap',
      });
      document.body.append(box);
    }
    box.textContent = `make failed; this page is from the last good build\n${error.join('\n')}`;
  };

  const events = new EventSource('/__preview/events');
  events.onmessage = (e) => {
    const state = JSON.parse(e.data);
    if (state.gen !== mine) {
      events.close();
      location.reload(); // the browser keeps the place, as on any reload
    } else {
      show(state.error);
    }
  };
})();
