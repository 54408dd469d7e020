/**
 * The chat chunk (`/widget/chat.js`), loaded by the loader on first interaction. Renders the
 * panel into the loader's shadow root and takes over the `Parley` commands, `on` included.
 */
import { render } from "preact";
import { createChatStore } from "./core/chat-store";
import type { ChatContext, ChatHandle, PanelContext, VisitorIdentity } from "./core/protocol";
import { createLive, VISITOR_RECONNECTION } from "./core/live";
import { browserStore, tabStore } from "./core/storage";
import { createTransport, fetchConfig } from "./core/transport";
import { PANEL_CSS } from "./ui/styles";
import { Panel } from "./ui/panel";
import { createVoice } from "./ui/voice";

/** Mounts the panel; the loader calls this once, then replays the queued commands to the handle. */
export function mountChat(loaderContext: ChatContext): ChatHandle {
  const listeners: Record<string, ((payload: unknown) => void)[]> = {};
  const context: PanelContext = {
    ...loaderContext,
    emit(event, payload) {
      for (const listener of listeners[event] ?? []) {
        try {
          listener(payload);
        } catch (error) {
          console.warn("[parley]", error);
        }
      }
    },
  };
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(PANEL_CSS);
  context.root.adoptedStyleSheets = [...context.root.adoptedStyleSheets, sheet];
  const container = document.createElement("div");
  context.root.append(container);
  const { options } = context;
  let language = context.language || navigator.language || "en";
  const transport = createTransport(options.api, options.clientId, () => language);
  const store = createChatStore({
    clientId: options.clientId,
    transport,
    storage: browserStore(),
    tabStorage: tabStore(),
    config: context.config,
    fetchConfig: (current) => fetchConfig(options.api, options.clientId, current),
    openLive: (session) => createLive({ open: (signal, alive) => transport.events(session, signal, alive), ...VISITOR_RECONNECTION }),
    online: () => navigator.onLine,
    events: window,
    emit: context.emit,
    setUnread: context.setUnread,
    identity: context.identity,
    language,
  });

  const audio = document.createElement("audio");
  audio.hidden = true;
  context.root.append(audio);
  // Redrawn after the current render and its effects: an answer starts playing from an effect.
  const voice = createVoice(
    options.api,
    options.clientId,
    () => store.getState().session,
    () => language,
    audio,
    () => queueMicrotask(draw),
  );
  const draw = () => {
    try {
      render(<Panel options={options} store={store} voice={voice} onClose={() => setOpen(false)} />, container);
    } catch (error) {
      console.warn("[parley]", error);
    }
  };
  store.subscribe(draw);
  function setOpen(next: boolean) {
    if (next === store.getState().open) return;
    context.setOpen(next);
    store.setOpen(next);
    context.emit(next ? "open" : "close");
    if (!next) context.bubble?.focus();
  }
  draw();
  // `ready` comes once the listeners queued before loading are in, before any other command acts
  // (the loader replays the queue right after this returns), else after the replay.
  let ready = false;
  const announce = () => {
    if (ready) return;
    ready = true;
    context.emit("ready");
  };
  queueMicrotask(announce);
  return {
    command(name, args) {
      if (name === "on") {
        const [event, listener] = args as [string, (payload: unknown) => void];
        if (typeof listener === "function") (listeners[event] ??= []).push(listener);
        return;
      }
      announce();
      if (name === "open") setOpen(true);
      else if (name === "close") setOpen(false);
      else if (name === "toggle") setOpen(!store.getState().open);
      else if (name === "identify") store.identify(args[0] as VisitorIdentity);
      else if (name === "setLanguage") {
        language = String(args[0]);
        store.setLanguage(language);
      }
    },
  };
}
