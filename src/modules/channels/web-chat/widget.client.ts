// The chat widget's browser script, served as GET /widget/v1/widget.js (web-chat.callbacks.ts). It is a
// string, not a module of the service: it runs on customers' sites, in any browser, with no framework and
// no build step. Written without template literals (this file's String.raw would take them) and without
// innerHTML for anything a person wrote (messages are text nodes; links are built as elements).
//
// <script src="https://svc.example.com/widget/v1/widget.js" data-channel="wck_…" async></script>
// Optional: data-user-id + data-user-hash (identity verification), data-email, data-name, data-locale (en|de).
// Everything lives in a shadow root (styles neither leak in nor out); the visitor token is kept in the
// page's localStorage per channel, so a returning visitor sees their conversation.

export const WIDGET_SOURCE = String.raw`(function () {
  'use strict';
  var script = document.currentScript;
  if (!script || window.__svcChatLoaded) return;
  window.__svcChatLoaded = true;
  var key = script.getAttribute('data-channel') || '';
  var base = new URL(script.src).origin;
  var api = base + '/widget/v1/channels/' + encodeURIComponent(key);
  var store = 'svc-chat:' + key;
  var T = {
    en: { open: 'Open chat', close: 'Close chat', title: 'Chat with us', greeting: 'Hi! How can we help?', label: 'Your message', send: 'Send', emailLabel: 'Your e-mail address', emailIntro: 'Leave your e-mail address so we can answer you even after you leave.', start: 'Start chat', handoff: 'A person from our team will answer you here.', typing: 'Typing…', failed: 'Not sent. Try again.', bot: 'Assistant', agent: 'Team', you: 'You', offline: 'The chat is not available right now.', resolved: 'This conversation was closed. Write to start a new one.', attach: 'Attach an image or PDF', tooBig: 'Files up to 5 MB.', writing: 'The assistant is writing a reply…' },
    de: { open: 'Chat öffnen', close: 'Chat schließen', title: 'Schreiben Sie uns', greeting: 'Hallo! Wie können wir helfen?', label: 'Ihre Nachricht', send: 'Senden', emailLabel: 'Ihre E-Mail-Adresse', emailIntro: 'Hinterlassen Sie Ihre E-Mail-Adresse, damit wir Ihnen auch später antworten können.', start: 'Chat beginnen', handoff: 'Eine Person aus unserem Team antwortet Ihnen hier.', typing: 'Schreibt…', failed: 'Nicht gesendet. Bitte erneut versuchen.', bot: 'Assistent', agent: 'Team', you: 'Sie', offline: 'Der Chat ist gerade nicht verfügbar.', resolved: 'Dieses Gespräch wurde beendet. Schreiben Sie, um ein neues zu beginnen.', attach: 'Bild oder PDF anhängen', tooBig: 'Dateien bis 5 MB.', writing: 'Der Assistent schreibt eine Antwort…' }
  };
  var asked = (script.getAttribute('data-locale') || '').slice(0, 2);
  var browser = (navigator.language || 'en').slice(0, 2).toLowerCase();
  var lang = T[asked] ? asked : T[browser] ? browser : 'en';
  var t = T[lang];
  var state = { token: null, config: null, seen: {}, handedOff: false, stream: null, email: null, drafts: {}, finished: {}, replacing: {} };
  try { state.token = localStorage.getItem(store); } catch (e) { /* storage blocked: a session per page */ }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    for (var k in attrs || {}) {
      if (k === 'text') node.textContent = attrs[k];
      else if (k.slice(0, 2) === 'on') node.addEventListener(k.slice(2), attrs[k]);
      else node.setAttribute(k, attrs[k]);
    }
    (children || []).forEach(function (c) { node.appendChild(c); });
    return node;
  }
  function request(method, path, body, type) {
    var headers = { 'Content-Type': type || 'application/json' };
    if (state.token) headers.Authorization = 'Bearer ' + state.token;
    return fetch(api + path, { method: method, headers: headers, body: body ? (type ? body : JSON.stringify(body)) : undefined, mode: 'cors', credentials: 'omit' }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        if (!r.ok) { var err = new Error(data.detail || ('HTTP ' + r.status)); err.status = r.status; throw err; }
        return data;
      });
    });
  }
  function id() {
    var a = new Uint8Array(16);
    crypto.getRandomValues(a);
    return Array.prototype.map.call(a, function (b) { return ('0' + b.toString(16)).slice(-2); }).join('');
  }

  // Text with Markdown links and bare URLs as links; everything else as text.
  function rich(text) {
    var frag = document.createDocumentFragment();
    var re = /\[([^\]\n]{1,200})\]\((https?:\/\/[^)\s]{1,2000})\)|(https?:\/\/[^\s<>()"']*[^\s<>()"'.,;:!?])/g;
    var last = 0, m;
    while ((m = re.exec(text))) {
      if (m.index > last) frag.appendChild(document.createTextNode(text.slice(last, m.index)));
      frag.appendChild(el('a', { href: m[2] || m[3], target: '_blank', rel: 'noopener noreferrer', text: m[1] || m[3] }));
      last = re.lastIndex;
    }
    if (last < text.length) frag.appendChild(document.createTextNode(text.slice(last)));
    return frag;
  }

  var host = el('div', { id: 'svc-chat-widget' });
  var root = host.attachShadow({ mode: 'open' });
  var style = el('style');
  var log = el('div', { class: 'log', role: 'log', 'aria-live': 'polite', 'aria-label': t.title });
  var notice = el('p', { class: 'notice', hidden: '' });
  var typing = el('p', { class: 'typing', hidden: '', text: t.typing });
  // Said once when the bot starts writing (the growing draft itself is hidden from screen readers).
  var status = el('p', { class: 'sr', role: 'status' });
  var input = el('textarea', { id: 'svc-chat-input', rows: '2', maxlength: '4000' });
  var sendButton = el('button', { type: 'submit', class: 'send', text: t.send });
  var fileInput = el('input', { id: 'svc-chat-file', type: 'file', class: 'sr', accept: 'image/png,image/jpeg,image/gif,image/webp,application/pdf' });
  var attachLabel = el('label', { for: 'svc-chat-file', class: 'attach', title: t.attach }, [el('span', { class: 'sr', text: t.attach }), el('span', { 'aria-hidden': 'true', text: '📎' })]);
  var form = el('form', { class: 'compose' }, [fileInput, attachLabel, el('label', { for: 'svc-chat-input', class: 'sr', text: t.label }), input, sendButton]);
  var emailInput = el('input', { id: 'svc-chat-email', type: 'email', required: '', autocomplete: 'email', maxlength: '254' });
  var prechat = el('form', { class: 'prechat', hidden: '' }, [el('p', { text: t.emailIntro }), el('label', { for: 'svc-chat-email', text: t.emailLabel }), emailInput, el('button', { type: 'submit', class: 'send', text: t.start })]);
  var closeButton = el('button', { type: 'button', class: 'close', 'aria-label': t.close, text: '×' });
  var panel = el('div', { class: 'panel', role: 'dialog', 'aria-label': t.title, hidden: '' }, [el('header', {}, [el('h2', { text: t.title }), closeButton]), log, typing, status, notice, prechat, form]);
  var launcher = el('button', { type: 'button', class: 'launcher', 'aria-label': t.open, 'aria-expanded': 'false' }, [el('span', { 'aria-hidden': 'true', text: '💬' })]);
  root.appendChild(style);
  root.appendChild(panel);
  root.appendChild(launcher);

  function theme(cfg) {
    var color = /^#[0-9a-fA-F]{6}$/.test(cfg.theme.color) ? cfg.theme.color : '#1f6feb';
    var side = cfg.theme.position === 'bottom-left' ? 'left' : 'right';
    style.textContent = ':host{all:initial}' +
      '*{box-sizing:border-box;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:15px;line-height:1.4}' +
      '.launcher{position:fixed;bottom:20px;' + side + ':20px;width:56px;height:56px;border-radius:50%;border:0;background:' + color + ';color:#fff;font-size:24px;cursor:pointer;box-shadow:0 4px 14px rgba(0,0,0,.25);z-index:2147483000}' +
      '.panel{position:fixed;bottom:88px;' + side + ':20px;width:360px;max-width:calc(100vw - 40px);height:520px;max-height:calc(100vh - 120px);background:#fff;color:#1b1b1b;border-radius:12px;box-shadow:0 8px 30px rgba(0,0,0,.3);display:flex;flex-direction:column;overflow:hidden;z-index:2147483000}' +
      '.panel[hidden],.prechat[hidden],.compose[hidden],.notice[hidden],.typing[hidden]{display:none}' +
      'header{background:' + color + ';color:#fff;padding:12px 16px;display:flex;align-items:center;justify-content:space-between}' +
      'h2{margin:0;font-size:16px;font-weight:600;color:#fff}' +
      '.close{background:transparent;border:0;color:#fff;font-size:24px;cursor:pointer;line-height:1;padding:0 4px}' +
      '.log{flex:1;overflow-y:auto;padding:12px;display:flex;flex-direction:column;gap:8px}' +
      '.msg{max-width:85%;padding:8px 12px;border-radius:12px;white-space:pre-wrap;word-wrap:break-word}' +
      '.msg .who{display:block;font-size:12px;color:#4a4a4a;margin-bottom:2px}' +
      '.visitor{align-self:flex-end;background:' + color + ';color:#fff}.visitor .who{color:#fff}.visitor a{color:#fff}' +
      '.bot,.agent,.greeting{align-self:flex-start;background:#f0f0f0;color:#1b1b1b}.bot a,.agent a,.greeting a{color:#0b4fb3}' +
      '.avatar{width:28px;height:28px;border-radius:50%;vertical-align:middle;margin-right:6px}' +
      '.pending{opacity:.7}.failed{outline:2px solid #b00020}' +
      '.draft .text::after{content:"\u258D";margin-left:1px;animation:blink 1s steps(2) infinite}@keyframes blink{50%{opacity:0}}' +
      '@media (prefers-reduced-motion:reduce){.draft .text::after{animation:none}}' +
      '.notice,.typing{margin:0 12px 8px;font-size:13px;color:#4a4a4a}' +
      '.compose,.prechat{display:flex;gap:8px;padding:10px;border-top:1px solid #ddd}.prechat{flex-direction:column}' +
      'textarea,input{flex:1;border:1px solid #767676;border-radius:8px;padding:8px;resize:none;color:#1b1b1b;background:#fff}' +
      '.send{background:' + color + ';color:#fff;border:0;border-radius:8px;padding:8px 14px;cursor:pointer;font-weight:600}' +
      'button:focus-visible,textarea:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #ffbf47;outline-offset:2px}' +
      '.attach{display:flex;align-items:center;cursor:pointer;font-size:20px;padding:0 2px}' +
      '.file img{display:block;max-width:220px;max-height:220px;border-radius:8px;margin-top:4px}.file a{display:block;margin-top:4px}' +
      '.seen{display:block;font-size:11px;text-align:right;margin-top:2px}' +
      '.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}';
  }

  function add(m, pending) {
    if (m.id && state.seen[m.id]) return state.seen[m.id];
    var who = m.from === 'visitor' ? t.you : m.from === 'bot' ? t.bot : t.agent;
    var head = el('span', { class: 'who' });
    if (m.from !== 'visitor' && state.config && state.config.theme.avatar_url) head.appendChild(el('img', { class: 'avatar', src: state.config.theme.avatar_url, alt: '' }));
    head.appendChild(document.createTextNode(who));
    var bubble = el('div', { class: 'msg ' + m.from + (pending ? ' pending' : '') }, [head]);
    bubble.appendChild(rich(m.text || ''));
    (m.attachments || []).forEach(function (a) {
      var link = el('a', { href: a.url, target: '_blank', rel: 'noopener noreferrer' });
      if (/^image\//.test(a.content_type || '')) link.appendChild(el('img', { src: a.url, alt: a.filename || 'image' }));
      else link.textContent = a.filename || a.url;
      bubble.appendChild(el('span', { class: 'file' }, [link]));
    });
    // The bot's answer takes the place of its draft, once (whichever of the two arrived first).
    var d = m.from === 'bot' && m.id ? draftFor(m) : null;
    if (d) { log.insertBefore(bubble, d.bubble); dropDraft(d.id, true); }
    else log.appendChild(bubble);
    log.scrollTop = log.scrollHeight;
    if (m.id) state.seen[m.id] = bubble;
    if (m.conversation_id) bubble.setAttribute('data-conversation', m.conversation_id);
    if (m.from !== 'visitor') typing.hidden = true;
    if (m.id && m.from !== 'visitor') setTimeout(reportRead, 0);
    return bubble;
  }

  // The bot's reply while it is written (event 'draft'): text from 'offset' on, until 'done'. Losable: the
  // message is the answer, so a draft with a gap waits for it, and one left alone goes after a minute.
  function draftFor(m) {
    var id = state.replacing[m.id];
    if (id && state.drafts[id]) return state.drafts[id];
    for (var k in state.drafts) if (state.drafts[k].conversation === m.conversation_id) return state.drafts[k];
    return null;
  }
  function dropDraft(id, answered) {
    var d = state.drafts[id];
    if (answered) state.finished[id] = true;
    if (!d) return;
    clearTimeout(d.stale);
    d.bubble.remove();
    delete state.drafts[id];
    status.textContent = '';
  }
  function draft(e) {
    if (state.finished[e.draft_id]) return;
    var d = state.drafts[e.draft_id];
    if (e.done) {
      if (e.done === 'discarded') return dropDraft(e.draft_id, false);
      state.finished[e.draft_id] = true;
      if (!d || state.seen[e.message_id]) return dropDraft(e.draft_id, true);
      state.replacing[e.message_id] = e.draft_id;
      return;
    }
    if (!d) {
      if (e.offset !== 0) return;
      var body = el('span', { class: 'text' });
      var head = el('span', { class: 'who', text: t.bot });
      d = state.drafts[e.draft_id] = { id: e.draft_id, conversation: e.conversation_id, text: '', body: body, bubble: el('div', { class: 'msg bot draft', 'aria-hidden': 'true' }, [head, body]) };
      log.appendChild(d.bubble);
      typing.hidden = true;
      status.textContent = t.writing;
    }
    if (e.offset > d.text.length) return;
    d.text = d.text.slice(0, e.offset) + e.text;
    // Citation markers ([1]) become the links under the final message: not shown while it is written.
    d.body.textContent = d.text.replace(/\s*\[\d{1,3}\]/g, '').replace(/\s*\[\d{0,3}$/, '');
    log.scrollTop = log.scrollHeight;
    clearTimeout(d.stale);
    d.stale = setTimeout(function () { dropDraft(e.draft_id, false); }, 60000);
  }
  function setState(s) {
    if (s.handed_off && !state.handedOff) { state.handedOff = true; notice.textContent = t.handoff; notice.hidden = false; }
    if (s.status === 'resolved') { notice.textContent = t.resolved; notice.hidden = false; state.handedOff = false; }
  }
  // A conversation of the visitor was deleted (the workspace's retention, an erasure): its messages go, and if it
  // was the one shown, its state too; the visitor's next message starts a new one. The greeting stays.
  function deleted(conversationId) {
    var shown = false;
    for (var id in state.seen) {
      if (state.seen[id].getAttribute('data-conversation') !== conversationId) continue;
      state.seen[id].remove();
      delete state.seen[id];
      shown = true;
    }
    for (var k in state.drafts) if (state.drafts[k].conversation === conversationId) dropDraft(k, false);
    if (!shown) return;
    state.handedOff = false;
    notice.hidden = true;
    typing.hidden = true;
  }
  function showCompose() {
    var needEmail = state.config && state.config.require_email && !state.email;
    prechat.hidden = !needEmail;
    form.hidden = !!needEmail;
  }

  function connect() {
    if (state.stream || !state.token || typeof EventSource === 'undefined') return;
    var es = new EventSource(api + '/stream?token=' + encodeURIComponent(state.token));
    state.stream = es;
    es.addEventListener('message', function (e) { add(JSON.parse(e.data)); });
    es.addEventListener('state', function (e) { setState(JSON.parse(e.data)); });
    es.addEventListener('typing', function (e) { typing.hidden = !JSON.parse(e.data).typing; });
    es.addEventListener('draft', function (e) { draft(JSON.parse(e.data)); });
    es.addEventListener('read', function (e) { teamRead(JSON.parse(e.data).up_to); });
    es.addEventListener('deleted', function (e) { deleted(JSON.parse(e.data).conversation_id); });
    // After a reconnect, what was missed is in the history (messages already shown are skipped).
    es.addEventListener('ready', function () { history(); });
  }
  function history() {
    return request('GET', '/messages').then(function (h) { h.messages.forEach(function (m) { add(m); }); setState(h); teamRead(h.team_read_up_to); });
  }

  function start() {
    var body = { token: state.token || undefined };
    ['user-id', 'user-hash', 'email', 'name'].forEach(function (a) {
      var v = script.getAttribute('data-' + a);
      if (v) body[a.replace('-', '_')] = v;
    });
    return request('POST', '/session', body).then(function (s) {
      if (!state.greeted) { state.greeted = true; add({ from: 'greeting', text: s.config.theme.greeting || t.greeting }); }
      state.token = s.token;
      state.config = s.config;
      state.email = s.visitor.email;
      try { localStorage.setItem(store, s.token); } catch (e) { /* kept for this page only */ }
      theme(s.config);
      s.messages.forEach(function (m) { add(m); });
      setState(s);
      teamRead(s.team_read_up_to);
      showCompose();
      connect();
    });
  }

  // Read receipts (web-chat-read-receipts.ts): the newest reply shown while the chat is open in a visible tab
  // is reported read (replies before it with it); "Seen" stands under the visitor's newest message the team read.
  T.en.seen = 'Seen';
  T.de.seen = 'Gesehen';
  var seenMark = el('span', { class: 'seen', text: t.seen });
  var readSent = '', teamUpTo = '';
  function reportRead() {
    if (!state.token || panel.hidden || document.visibilityState !== 'visible') return;
    var newest = '';
    for (var k in state.seen) if (k > newest && k > readSent && !state.seen[k].classList.contains('visitor')) newest = k;
    if (!newest) return;
    readSent = newest;
    request('POST', '/read', { message_id: newest }).catch(function () { readSent = ''; });
  }
  function teamRead(upTo) {
    if (!upTo || upTo < teamUpTo) return;
    teamUpTo = upTo;
    var mine = '';
    for (var k in state.seen) if (k <= upTo && k > mine && state.seen[k].classList.contains('visitor')) mine = k;
    if (mine) state.seen[mine].appendChild(seenMark);
  }
  document.addEventListener('visibilitychange', reportRead);
  // The link in a reply sent by e-mail (web-chat-email-followup.ts) opens the chat.
  function fromMail() { if (location.hash === '#svc-chat') openPanel(true); }

  // A visitor is made when the chat is first opened (a page view alone makes none); a returning one resumes at once.
  var starting = null;
  function ensureSession() {
    starting = starting || start().catch(function (err) {
      // A stale token (another channel's, a forgotten visitor) is dropped once; anything else shows.
      if (err.status === 401 && state.token) { state.token = null; return start(); }
      throw err;
    }).catch(function (err) {
      notice.textContent = t.offline + ' (' + err.message + ')';
      notice.hidden = false;
      form.hidden = true;
    });
    return starting;
  }
  function openPanel(open) {
    if (open) ensureSession();
    panel.hidden = !open;
    if (open) setTimeout(reportRead, 0);
    launcher.setAttribute('aria-expanded', String(open));
    launcher.setAttribute('aria-label', open ? t.close : t.open);
    if (open) (prechat.hidden ? input : emailInput).focus();
    else launcher.focus();
  }
  launcher.addEventListener('click', function () { openPanel(panel.hidden); });
  closeButton.addEventListener('click', function () { openPanel(false); });
  panel.addEventListener('keydown', function (e) { if (e.key === 'Escape') openPanel(false); });
  input.addEventListener('keydown', function (e) { if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); form.requestSubmit(); } });
  // The team sees the visitor typing: at most one signal every 3 s, and "stopped" 5 s after the last key.
  var typingSent = 0, typingStop = null;
  function typingSignal(on) {
    if (!state.token) return;
    request('POST', '/typing', { typing: on }).catch(function () { /* a hint only */ });
  }
  input.addEventListener('input', function () {
    if (Date.now() - typingSent > 3000) { typingSent = Date.now(); typingSignal(true); }
    clearTimeout(typingStop);
    typingStop = setTimeout(function () { typingSent = 0; typingSignal(false); }, 5000);
  });
  fileInput.addEventListener('change', function () {
    var file = fileInput.files && fileInput.files[0];
    fileInput.value = '';
    if (!file) return;
    if (file.size > 5 * 1024 * 1024) { notice.textContent = t.tooBig; notice.hidden = false; return; }
    var bubble = add({ from: 'visitor', text: file.name }, true);
    request('POST', '/files?client_id=' + id() + '&filename=' + encodeURIComponent(file.name.slice(0, 200)), file, file.type || 'application/octet-stream').then(function (r) {
      // The message with its file comes from the stream, or else from the history read here.
      bubble.remove();
      return state.seen[r.message_id] ? null : history();
    }, function (err) {
      bubble.classList.add('failed');
      bubble.setAttribute('title', t.failed + ' ' + err.message);
    });
  });
  prechat.addEventListener('submit', function (e) {
    e.preventDefault();
    request('POST', '/profile', { email: emailInput.value }).then(function (v) { state.email = v.email; showCompose(); input.focus(); }, function (err) { notice.textContent = err.message; notice.hidden = false; });
  });
  form.addEventListener('submit', function (e) {
    e.preventDefault();
    var text = input.value.trim();
    if (!text) return;
    clearTimeout(typingStop);
    typingSent = 0;
    input.value = '';
    var clientId = id();
    var bubble = add({ from: 'visitor', text: text }, true);
    var send = function () {
      return request('POST', '/messages', { client_id: clientId, text: text }).then(function (r) {
        bubble.classList.remove('pending', 'failed');
        if (r.message_id) {
          if (state.seen[r.message_id] && state.seen[r.message_id] !== bubble) bubble.remove();
          else state.seen[r.message_id] = bubble;
        }
        if (r.conversation_id) bubble.setAttribute('data-conversation', r.conversation_id);
        connect();
      }, function (err) {
        bubble.classList.add('failed');
        bubble.setAttribute('title', t.failed + ' ' + err.message);
        bubble.onclick = function () { bubble.onclick = null; send(); };
      });
    };
    ensureSession().then(send);
  });

  function boot() {
    theme({ theme: { color: '#1f6feb', position: 'bottom-right' } });
    document.body.appendChild(host);
    if (state.token) { ensureSession(); return; }
    request('GET', '/config').then(function (cfg) {
      state.config = cfg;
      theme(cfg);
      if (!state.greeted) { state.greeted = true; add({ from: 'greeting', text: cfg.theme.greeting || t.greeting }); }
    }, function () { /* shown when the visitor opens the chat */ });
  }
  if (document.body) boot(); else document.addEventListener('DOMContentLoaded', boot);
  if (document.body) fromMail(); else document.addEventListener('DOMContentLoaded', fromMail);
  window.SvcChat = { open: function () { openPanel(true); }, close: function () { openPanel(false); } };
})();
`
