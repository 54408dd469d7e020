/**
 * The chat chunk (`/widget/chat.js`), loaded by the loader on first interaction. Renders the
 * panel into the loader's shadow root and takes over the `Parley` commands, `on` included.
 */
import { render } from 'preact';
import type { ChatContext, ChatHandle, PanelContext, VisitorIdentity } from './core/protocol';
import { PANEL_CSS } from './ui/styles';
import { Panel } from './ui/panel';

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
          console.warn('[parley]', error);
        }
      }
    },
  };
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(PANEL_CSS);
  context.root.adoptedStyleSheets = [...context.root.adoptedStyleSheets, sheet];
  const container = document.createElement('div');
  context.root.append(container);
  let open = false;
  let language = context.language || navigator.language || 'en';
  let identity: VisitorIdentity | undefined = context.identity;

  const draw = () => {
    try {
      render(<Panel context={context} open={open} language={language} identity={identity} onClose={() => setOpen(false)} />, container);
    } catch (error) {
      console.warn('[parley]', error);
    }
  };
  function setOpen(next: boolean) {
    if (next === open) return;
    open = next;
    context.setOpen(open);
    draw();
    context.emit(open ? 'open' : 'close');
    if (!open) context.bubble?.focus();
  }
  draw();
  // `ready` comes once the listeners queued before loading are in, before any other command acts
  // (the loader replays the queue right after this returns), else after the replay.
  let ready = false;
  const announce = () => {
    if (ready) return;
    ready = true;
    context.emit('ready');
  };
  queueMicrotask(announce);
  return {
    command(name, args) {
      if (name === 'on') {
        const [event, listener] = args as [string, (payload: unknown) => void];
        if (typeof listener === 'function') (listeners[event] ??= []).push(listener);
        return;
      }
      announce();
      if (name === 'open') setOpen(true);
      else if (name === 'close') setOpen(false);
      else if (name === 'toggle') setOpen(!open);
      else if (name === 'identify') identity = args[0] as VisitorIdentity;
      else if (name === 'setLanguage') language = String(args[0]);
      else return;
      draw();
    },
  };
}
