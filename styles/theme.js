/* The reader's choice of colours: light, dark, or as the system has it
 * (the default). It is kept in localStorage, which works from file://
 * too, and set on the root as data-theme="light" or "dark" before the
 * body is read: the page loads this file in its head, without defer, so
 * that it is drawn in the chosen colours from the first frame. book.css
 * does the rest. The switch in the navigation is hidden until this script
 * runs, as the search box is; a reader without scripts follows the
 * system.
 */
(function () {
  'use strict';

  var kKey = 'cuda-book-theme';
  var root = document.documentElement;

  function stored() {
    try {
      var t = localStorage.getItem(kKey);
      return t === 'light' || t === 'dark' ? t : '';
    } catch (e) {
      return '';   // storage refused (a private window, a policy)
    }
  }

  function apply(theme) {
    if (theme) {
      root.setAttribute('data-theme', theme);
    } else {
      root.removeAttribute('data-theme');
    }
  }

  apply(stored());

  document.addEventListener('DOMContentLoaded', function () {
    var box = document.getElementById('theme-switch');
    var choice = document.getElementById('theme');
    if (!box || !choice) {
      return;
    }
    choice.value = stored();
    box.hidden = false;
    choice.addEventListener('change', function () {
      try {
        if (choice.value) {
          localStorage.setItem(kKey, choice.value);
        } else {
          localStorage.removeItem(kKey);
        }
      } catch (e) {
        // Not kept: this page still takes it.
      }
      apply(choice.value);
    });
    // A choice made on another page of the book, open at the same time.
    window.addEventListener('storage', function (e) {
      if (e.key === kKey || e.key === null) {
        choice.value = stored();
        apply(choice.value);
      }
    });
  });
})();
