/* global window, document, __SEARCH_TEXTS__ */
/**
 * The search shell: inlined in every page's <head> by plugins/ssr-template.ts, so it works from
 * the first paint, long before React has hydrated. A click on the search button, Ctrl/Cmd+K, `/`
 * outside a field, or a key typed with the search button focused shows at once a light search box
 * drawn like the DocSearch modal's (placeholder "Search docs", at most 64 characters; Escape,
 * Ctrl/Cmd+K and a click outside close it). The reader types into it while the app and the modal's
 * code arrive; the React search bar (useSearchLauncher.ts) then takes over: it opens
 * the real modal, which takes the shell's text and caret (SearchModal.tsx), and the
 * shell goes away. After hydration the search bar uses the same shell while the modal's code loads.
 *
 * `window.__searchShell` is the only contact between this script and React (type: shell.ts).
 * Comment lines and indentation are stripped when the script is inlined: write no trailing
 * comments and no code that depends on line breaks.
 *
 * In local mode the box also answers (`texts.early`, the theme's earlyAnswers option): when it
 * opens it imports early-search.js once the app's scripts have arrived (1 s at most), which
 * fetches the index while the app starts and shows
 * the modal's hits, in the modal's order and look, until the modal takes over (see that file).
 */
(function (texts) {
  var MAX_LENGTH = 64;
  var shell = null;
  var input = null;
  var status = null;
  /** Set by the React search bar once it handles clicks and shortcuts itself. */
  var owner = null;
  /** The reader is pressing Cancel: a modal that mounts before the release is closed with the box. */
  var cancelPressed = false;
  /** The module that answers in the box (early-search.ts), imported when the box first opens. */
  var early = null;

  function isField(el) {
    return !!el && (el.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName));
  }
  function isToggle(e) {
    return (e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k';
  }
  function escape(text) {
    return String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  }
  function searchButton() {
    return document.querySelector('.DocSearch-Button');
  }

  function build() {
    var el = document.createElement('div');
    el.className = 'search-shell';
    el.innerHTML =
      '<div class="search-shell__modal" role="dialog" aria-modal="true" aria-label="' + escape(texts.placeholder) + '">' +
      '<div class="search-shell__bar">' +
      '<form class="search-shell__form" role="search" action="' + escape(texts.page) + '">' +
      '<svg class="search-shell__icon" width="20" height="20" viewBox="0 0 20 20" aria-hidden="true">' +
      '<circle cx="8.6" cy="8.6" r="6.4" stroke="currentColor" stroke-width="1.5" fill="none"></circle>' +
      '<path d="M13.3 13.3 18.2 18.2" stroke="currentColor" stroke-width="1.5" stroke-linecap="round"></path></svg>' +
      '<input class="search-shell__input" name="q" type="search" placeholder="' + escape(texts.placeholder) + '" aria-label="' + escape(texts.placeholder) + '"' +
      ' maxlength="' + MAX_LENGTH + '" autocomplete="off" autocorrect="off" autocapitalize="off" spellcheck="false" enterkeyhint="search">' +
      '</form>' +
      '<button class="search-shell__cancel" type="button">' + escape(texts.cancel) + '</button>' +
      '</div>' +
      '<p class="search-shell__status" role="status">' + escape(texts.loading) + '</p>' +
      '</div>';
    // Like DocSearch: a press outside the box closes it.
    el.addEventListener('mousedown', function (e) {
      if (e.target === el) {
        e.preventDefault();
        close();
      }
    });
    var cancel = el.querySelector('.search-shell__cancel');
    cancel.addEventListener('click', close);
    cancel.addEventListener('pointerdown', function () {
      cancelPressed = true;
    });
    el.querySelector('input').addEventListener('keydown', function (e) {
      if (e.key === 'Escape' || isToggle(e)) {
        e.preventDefault();
        e.stopPropagation();
        close();
      }
    });
    return el;
  }

  /** Shows the shell (unless the real modal shows) with `text` added to its query, and focuses it. */
  function open(text) {
    if (document.querySelector('.DocSearch-Modal')) return;
    var opening = !shell;
    if (opening) {
      shell = build();
      input = shell.querySelector('input');
      status = shell.querySelector('[role=status]');
      document.body.insertBefore(shell, document.body.firstChild);
    }
    if (text) input.value = (input.value + text).slice(0, MAX_LENGTH);
    input.focus();
    if (opening) answer(shell);
    if (opening && owner) owner.open();
  }

  /**
   * The app's scripts first: on a slow link every byte the box fetches (its module, the engine's
   * worker, the index) delays the app's own, and with them the page's hydration. The box fetches
   * once every script the page names has arrived, or GATE_MS after it opened at most (an app
   * that is late or never comes never holds the answers back).
   */
  var GATE_MS = 1000;
  var gate = null;
  function appScriptsArrived() {
    var urls = [].map.call(document.querySelectorAll('script[src],link[rel=preload][as=script]'), function (el) {
      return el.src || el.href;
    });
    var deadline = Date.now() + GATE_MS;
    return new Promise(function (resolve) {
      (function check() {
        var arrived = urls.every(function (url) {
          return window.performance.getEntriesByName(url).length > 0;
        });
        if (arrived || Date.now() >= deadline) resolve();
        else window.setTimeout(check, 50);
      })();
    });
  }

  /**
   * The app hydrates as soon as its scripts have arrived: the box's module, downloaded meanwhile,
   * runs in the next idle moment (IDLE_MS at most), not in the middle of the hydration.
   */
  var IDLE_MS = 300;
  function whenIdle() {
    return new Promise(function (resolve) {
      if (window.requestIdleCallback) window.requestIdleCallback(resolve, {timeout: IDLE_MS});
      else window.setTimeout(resolve, 0);
    });
  }

  /**
   * Local search, before the app has taken over: the box answers as the modal does, from the
   * first paint. Its module and the index download once the app's scripts have (see the gate
   * above); the modal answers from the same client later. (Once the app is there the modal's code
   * is on its way and answers: the box only keeps the text, as before.)
   */
  function answer(box) {
    if (!texts.early || owner) return;
    gate = gate || appScriptsArrived();
    early =
      early ||
      gate.then(function () {
        if (owner) return null;
        startWorker(texts.early.config);
        var preload = document.createElement('link');
        preload.rel = 'modulepreload';
        preload.href = texts.early.url;
        document.head.appendChild(preload);
        return whenIdle().then(function () {
          return import(texts.early.url);
        });
      });
    early.then(
      function (module) {
        if (!module) early = null;
        else if (shell === box) module.attach(box.firstChild, texts.early.config);
      },
      function () {
        early = null;
        if (shell === box && status) status.textContent = texts.failed;
      },
    );
  }

  /**
   * The engine's worker (early-worker.js) starts as the gate opens, in parallel with the module
   * that draws the answers: it downloads the index at once. early-search.js adopts it.
   */
  function startWorker(config) {
    if (window.__docsSearchEarly || window.__docsSearchWorker || typeof window.Worker === 'undefined') return;
    try {
      var worker = new window.Worker(config.workerUrl);
      worker.postMessage({id: 0, indexUrl: config.indexUrl, method: 'search', args: [{requests: [{indexName: config.indexName, query: '', hitsPerPage: 0}]}]});
      window.__docsSearchWorker = {worker: worker, url: config.workerUrl};
    } catch {
      window.__docsSearchWorker = null;
    }
  }

  /** Removes the shell; `toButton` gives focus back to the search button (a reader's close). */
  function remove(toButton) {
    if (!shell) return;
    shell.parentNode.removeChild(shell);
    shell = input = status = null;
    if (toButton) {
      var button = searchButton();
      if (button) button.focus();
    }
  }

  function close() {
    remove(true);
    if (owner) owner.cancel();
  }

  window.__searchShell = {
    open: open,
    close: close,
    input: function () {
      return input;
    },
    /**
     * The real modal has mounted with the shell's text: the shell goes, focus stays in the modal.
     * If Cancel is being pressed, its release would land on the modal and click nothing: the
     * reader's cancel is done now, and the modal closes too.
     */
    handOff: function () {
      if (cancelPressed) close();
      else remove(false);
    },
    /** The modal's code could not be loaded: the box stays usable, Enter opens the search page. */
    failed: function () {
      if (status) {
        status.hidden = false;
        status.textContent = texts.failed;
      }
    },
    /** The React search bar takes over clicks and shortcuts; an open shell is handed to it. */
    takeOver: function (handlers) {
      owner = handlers;
      if (shell) owner.open();
    },
  };

  ['pointerup', 'pointercancel'].forEach(function (type) {
    document.addEventListener(
      type,
      function () {
        cancelPressed = false;
      },
      true,
    );
  });
  document.addEventListener(
    'click',
    function (e) {
      if (owner || !e.target.closest || !e.target.closest('.DocSearch-Button')) return;
      e.preventDefault();
      open();
    },
    true,
  );
  document.addEventListener(
    'keydown',
    function (e) {
      if (owner || shell || e.defaultPrevented) return;
      var key = e.key;
      var onButton = e.target.closest && e.target.closest('.DocSearch-Button');
      if (isToggle(e) || (key === '/' && !isField(e.target))) {
        e.preventDefault();
        open();
      } else if (onButton && key.length === 1 && key !== ' ' && !((e.ctrlKey || e.metaKey) && key.toLowerCase() === 'f')) {
        e.preventDefault();
        open(key);
      }
    },
    true,
  );
})(__SEARCH_TEXTS__);
