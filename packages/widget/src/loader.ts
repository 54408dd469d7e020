/**
 * The script-tag loader (`/widget.js`): reads its `data-*` options, defines `window.Parley`,
 * shows the bubble in a shadow root and loads the chat (`/widget/chat.js`) on first
 * interaction. Opens no connection except one cacheable config GET.
 */
import { createCommandQueue } from "./core/commands";
import type { ChatContext, ChatHandle, ConfigResult, LoaderOptions, VisitorIdentity } from "./core/protocol";

type ParleyStub = ((...args: unknown[]) => void) & { q?: ArrayLike<ArrayLike<unknown>>; loaded?: boolean };

const warn = (error: unknown) => console.warn("[parley]", error);

const BUBBLE_CSS = `:host{all:initial}.b{position:fixed;bottom:20px;right:20px;z-index:2147483000;width:56px;height:56px;border-radius:50%;border:0;cursor:pointer;background:var(--parley-primary,#2563eb);color:#fff;box-shadow:0 4px 14px #0004;display:grid;place-items:center;padding:0}.b.l{right:auto;left:20px}.b:focus-visible{outline:3px solid #111;outline-offset:2px}.b svg{width:28px;height:28px;fill:currentColor}.k{position:absolute;top:-4px;right:-4px;min-width:12px;height:20px;border-radius:10px;background:#dc2626;color:#fff;font:600 12px/20px system-ui,sans-serif;text-align:center;padding:0 4px}.k:empty,.b[hidden]{display:none}.v{top:18px;right:64px;white-space:nowrap}.l .v{right:auto;left:64px}`;

function readOptions(script: HTMLScriptElement | null): LoaderOptions | undefined {
  const data = script?.dataset;
  const clientId = data?.clientId;
  if (!script || !data || !clientId) return undefined;
  const mode = data.mode === "page" || data.mode === "iframe" ? data.mode : "bubble";
  const position = data.position === "left" || data.position === "right" ? data.position : undefined;
  const api = (data.api || new URL(script.src).origin).replace(/\/+$/, "");
  return { clientId, api, language: data.language, position, mode };
}

/** GET config once; the result (never a rejection) is shared with the chat chunk. */
function loadConfig(options: LoaderOptions, language: string): Promise<ConfigResult> {
  return fetch(`${options.api}/api/v1/widget/${encodeURIComponent(options.clientId)}/config`, {
    credentials: "omit",
    headers: { "Accept-Language": language },
  })
    .then((response) =>
      response.json().then(
        (body) =>
          response.ok && body?.data ? { ok: true as const, config: body.data } : { ok: false as const, status: response.status, message: body?.message },
        () => ({ ok: false as const, status: response.status }),
      ),
    )
    .catch(() => ({ ok: false as const, status: 0 }));
}

function start(): void {
  const script = (document.currentScript as HTMLScriptElement | null) ?? document.querySelector<HTMLScriptElement>("script[data-client-id]");
  const options = readOptions(script);
  if (!options) {
    warn("data-client-id is required");
    return;
  }
  const existing = (window as unknown as { Parley?: ParleyStub }).Parley;
  if (existing?.loaded) return;

  const queue = createCommandQueue();
  let identity: VisitorIdentity | undefined;
  let language = options.language || navigator.language;
  let chat: Promise<ChatHandle | void> | undefined;
  let loaded: ChatHandle | undefined;
  // The chat could not be fetched (the server or the network is down) after the visitor asked.
  let down: HTMLParagraphElement | undefined;
  let wanted = false;

  const host = document.createElement("div");
  host.dataset.parley = "";
  const root = host.attachShadow({ mode: "open" });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(BUBBLE_CSS);
  root.adoptedStyleSheets = [sheet];

  let bubble: HTMLButtonElement | undefined;
  let badge: HTMLSpanElement | undefined;
  const zh = () => /^zh/i.test(language);
  if (options.mode === "bubble") {
    bubble = document.createElement("button");
    bubble.className = options.position === "left" ? "b l" : "b";
    bubble.ariaHasPopup = "dialog";
    bubble.ariaExpanded = "false";
    bubble.ariaLabel = zh() ? "打开聊天" : "Open chat";
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
    path.setAttribute("d", "M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z");
    svg.append(path);
    badge = document.createElement("span");
    badge.className = "k";
    bubble.append(svg, badge);
    root.append(bubble);
    bubble.onclick = () => dispatch("toggle", []);
    // Hover intent: start fetching the chat before the click lands.
    bubble.onpointerenter = () => void load();
  }

  const config = loadConfig(options, language).then((result) => {
    if (result.ok) {
      const color = result.config.primaryColor;
      // Through the CSSOM: a value cannot break out of the property, and no CSP forbids it.
      if (color) host.style.setProperty("--parley-primary", color);
      if (bubble && !options.position && result.config.position === "left") bubble.className = "b l";
    }
    return result;
  });

  function load(): Promise<ChatHandle | void> {
    // A failed module fetch is not remembered (HTML's module map keeps successes only): retrying works.
    chat ??= import(/* @vite-ignore */ `${options!.api}/widget/chat.js`)
      .then((module: { mountChat(context: ChatContext): ChatHandle }) => {
        const handle = module.mountChat({
          options: options!,
          root,
          bubble,
          config,
          identity,
          language,
          setUnread(count) {
            if (!badge) return;
            badge.textContent = (count || "") as string;
          },
          setOpen(open) {
            if (bubble) {
              bubble.ariaExpanded = String(open);
              bubble.hidden = open && innerWidth < 480;
            }
          },
        });
        down?.remove();
        loaded = handle;
        queue.drain((name, args) => handle.command(name, args));
        return handle;
      })
      .catch((error) => {
        chat = undefined;
        warn(error);
        // Only once the visitor asked for the chat: say so by the bubble, and keep trying.
        if (!wanted) return;
        if (!down) {
          down = document.createElement("p");
          down.className = "k v";
          down.role = "alert";
          (bubble ?? root).append(down);
        }
        down.textContent = zh() ? "聊天离线，正在重试…" : "Chat offline. Retrying…";
        setTimeout(load, 4000);
      });
    return chat;
  }

  function dispatch(name: string, args: unknown[]): void {
    if (name === "identify") identity = args[0] as VisitorIdentity;
    if (name === "setLanguage") language = String(args[0]);
    // Until the chat is there the panel is closed: repeated clicks while it loads all mean open.
    queue.push(name === "toggle" && !loaded ? "open" : name, args);
    if (name === "open" || name === "toggle") {
      wanted = true;
      void load();
    }
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
  for (const call of (existing?.q ?? []) as unknown[][]) parley(...call);

  const mount = () => {
    document.body.append(host);
    if (options.mode !== "bubble") dispatch("open", []);
  };
  if (document.body) mount();
  else document.addEventListener("DOMContentLoaded", mount);
}

try {
  start();
} catch (error) {
  warn(error);
}
