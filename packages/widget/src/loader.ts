/**
 * The script-tag loader (`/widget.js`): reads its `data-*` options, defines `window.Parley`,
 * shows the bubble in a shadow root and loads the chat (`/widget/chat.js`) on first
 * interaction. Opens no connection except one cacheable config GET.
 */
import { createCommandQueue } from './core/commands';
import type { ChatContext, ChatHandle, ConfigResult, LoaderOptions, VisitorIdentity } from './core/protocol';

type ParleyStub = ((...args: unknown[]) => void) & { q?: ArrayLike<ArrayLike<unknown>>; loaded?: boolean };

const warn = (error: unknown) => console.warn('[parley]', error);

const BUBBLE_CSS = `:host{all:initial}.b{position:fixed;bottom:20px;right:20px;z-index:2147483000;width:56px;height:56px;border-radius:50%;border:0;cursor:pointer;background:var(--parley-primary,#2563eb);color:#fff;box-shadow:0 4px 14px rgba(0,0,0,.25);display:flex;align-items:center;justify-content:center;padding:0}.b.l{right:auto;left:20px}.b:focus-visible{outline:3px solid #111;outline-offset:2px}.b svg{width:28px;height:28px;fill:currentColor}.k{position:absolute;top:-4px;right:-4px;min-width:20px;height:20px;border-radius:10px;background:#dc2626;color:#fff;font:600 12px/20px system-ui,sans-serif;text-align:center;padding:0 4px;box-sizing:border-box}.k:empty,.b[hidden]{display:none}`;

function readOptions(script: HTMLScriptElement | null): LoaderOptions | undefined {
  const data = script?.dataset;
  const clientId = data?.clientId;
  if (!script || !data || !clientId) return undefined;
  const mode = data.mode === 'page' || data.mode === 'iframe' ? data.mode : 'bubble';
  const position = data.position === 'left' || data.position === 'right' ? data.position : undefined;
  const api = (data.api || new URL(script.src, location.href).origin).replace(/\/+$/, '');
  return { clientId, api, language: data.language, position, mode };
}

/** GET config once; the result (never a rejection) is shared with the chat chunk. */
function loadConfig(options: LoaderOptions, language: string): Promise<ConfigResult> {
  return fetch(`${options.api}/api/v1/widget/${encodeURIComponent(options.clientId)}/config`, {
    credentials: 'omit',
    headers: { 'Accept-Language': language },
  })
    .then(async (response) => {
      const body = await response.json().catch(() => undefined);
      return response.ok && body?.data ? { ok: true as const, config: body.data } : { ok: false as const, status: response.status, message: body?.message };
    })
    .catch(() => ({ ok: false as const, status: 0 }));
}

function start(): void {
  const script = (document.currentScript as HTMLScriptElement | null) ?? document.querySelector<HTMLScriptElement>('script[data-client-id]');
  const options = readOptions(script);
  if (!options) return warn('data-client-id is required');
  const existing = (window as unknown as { Parley?: ParleyStub }).Parley;
  if (existing?.loaded) return;

  const listeners: Record<string, ((payload: unknown) => void)[]> = {};
  const queue = createCommandQueue();
  let identity: VisitorIdentity | undefined;
  let language = options.language || navigator.language;
  let chat: Promise<ChatHandle | void> | undefined;

  const host = document.createElement('div');
  host.setAttribute('data-parley', '');
  const root = host.attachShadow({ mode: 'open' });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(BUBBLE_CSS);
  const theme = new CSSStyleSheet();
  root.adoptedStyleSheets = [sheet, theme];

  let bubble: HTMLButtonElement | undefined;
  let badge: HTMLSpanElement | undefined;
  const zh = () => /^zh/i.test(language);
  if (options.mode === 'bubble') {
    bubble = document.createElement('button');
    bubble.className = options.position === 'left' ? 'b l' : 'b';
    bubble.type = 'button';
    bubble.setAttribute('aria-haspopup', 'dialog');
    bubble.setAttribute('aria-expanded', 'false');
    bubble.setAttribute('aria-label', zh() ? '打开聊天' : 'Open chat');
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('viewBox', '0 0 24 24');
    const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
    path.setAttribute('d', 'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z');
    svg.append(path);
    badge = document.createElement('span');
    badge.className = 'k';
    bubble.append(svg, badge);
    root.append(bubble);
    bubble.addEventListener('click', () => dispatch('toggle', []));
    // Hover intent: start fetching the chat before the click lands.
    bubble.addEventListener('pointerenter', () => void load(), { once: true });
  }

  const config = loadConfig(options, language).then((result) => {
    if (result.ok) {
      const color = result.config.primaryColor;
      if (color && /^[#\w(),.%\s]+$/.test(color)) theme.replaceSync(`:host{--parley-primary:${color}}`);
      if (bubble && !options.position && result.config.position === 'left') bubble.className = 'b l';
    }
    return result;
  });

  const emit = (event: string, payload?: unknown) => {
    for (const listener of listeners[event] ?? []) {
      try {
        listener(payload);
      } catch (error) {
        warn(error);
      }
    }
  };

  function load(): Promise<ChatHandle | void> {
    chat ??= import(/* @vite-ignore */ options!.api + '/widget/chat.js')
      .then((module: { mountChat(context: ChatContext): ChatHandle }) => {
        const handle = module.mountChat({
          options: options!,
          root,
          bubble,
          config,
          identity,
          language,
          emit,
          setUnread(count) {
            if (!badge) return;
            badge.textContent = count > 0 ? String(count) : '';
          },
          setOpen(open) {
            bubble?.setAttribute('aria-expanded', String(open));
            if (bubble) bubble.hidden = open && innerWidth < 480;
          },
        });
        queue.drain((name, args) => handle.command(name, args));
        return handle;
      })
      .catch((error) => {
        chat = undefined;
        warn(error);
        emit('error', error);
      });
    return chat;
  }

  function dispatch(name: string, args: unknown[]): void {
    if (name === 'on') {
      const [event, listener] = args as [string, (payload: unknown) => void];
      if (typeof listener === 'function') (listeners[event] ??= []).push(listener);
      return;
    }
    if (name === 'identify') identity = args[0] as VisitorIdentity;
    if (name === 'setLanguage') language = String(args[0]);
    queue.push(name, args);
    if (name === 'open' || name === 'toggle') void load();
  }

  const parley: ParleyStub = (name, ...args) => {
    try {
      dispatch(String(name), args);
    } catch (error) {
      warn(error);
    }
  };
  parley.loaded = true;
  (window as unknown as { Parley: ParleyStub }).Parley = parley;
  // Calls queued by a snippet stub before this script ran.
  for (const call of Array.from(existing?.q ?? [])) parley(...Array.from(call));

  const mount = () => {
    document.body.append(host);
    if (options.mode !== 'bubble') dispatch('open', []);
  };
  if (document.body) mount();
  else document.addEventListener('DOMContentLoaded', mount);
}

try {
  start();
} catch (error) {
  warn(error);
}
