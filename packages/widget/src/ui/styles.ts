/** The panel's stylesheet, adopted into the shadow root (no inline styles, strict-CSP safe). */
export const PANEL_CSS = `:host{all:initial!important}
.p{position:fixed;bottom:88px;right:20px;z-index:2147483001;width:370px;height:min(600px,calc(100vh - 110px));display:flex;flex-direction:column;background:#fff;color:#111;border-radius:12px;box-shadow:0 8px 30px rgba(0,0,0,.25);overflow:hidden;font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;box-sizing:border-box}
.p *{box-sizing:border-box}.p[hidden]{display:none}.p.l{right:auto;left:20px}
.p.f{inset:0;width:auto;height:auto;border-radius:0}
@media (max-width:480px){.p{inset:0;width:auto;height:auto;border-radius:0}}
.h{display:flex;align-items:center;gap:10px;padding:12px 14px;background:var(--parley-primary,#2563eb);color:#fff}
.h img{width:32px;height:32px;border-radius:50%;object-fit:cover}.h h2{flex:1;margin:0;font-size:16px;font-weight:600}
.v,.vp{background:none;border:0;color:inherit;cursor:pointer;padding:4px 6px;border-radius:6px}.vp{display:block;font-size:12px;opacity:.75;margin-top:4px}.x{background:none;border:0;color:inherit;font-size:22px;line-height:1;cursor:pointer;padding:4px 8px;border-radius:6px}
button:focus-visible,textarea:focus-visible,a:focus-visible{outline:2px solid #111;outline-offset:2px}
.g{flex:1;overflow-y:auto;padding:14px;display:flex;flex-direction:column;gap:10px}
.m{max-width:85%;padding:8px 12px;border-radius:12px;background:#f1f3f5;overflow-wrap:anywhere}
.m.u{align-self:flex-end;background:var(--parley-primary,#2563eb);color:#fff;white-space:pre-wrap}
.m p,.m ul,.m ol,.m pre{margin:0 0 6px}.m>:last-child{margin-bottom:0}.m ul,.m ol{padding-left:20px}
.m pre{background:#1f2937;color:#f9fafb;padding:8px;border-radius:6px;overflow-x:auto}
.m .dt{overflow-x:auto;margin:0 0 6px}.m .dt table{border-collapse:collapse;font-size:12px}.m .dt th,.m .dt td{border:1px solid #dee2e6;padding:2px 6px;text-align:left}.m .dw{margin-top:6px;padding:6px;border:1px solid #dee2e6;border-radius:6px;font-size:12px}.m .dw pre{white-space:pre-wrap;margin:4px 0;font:12px ui-monospace,monospace}.m .dw button{font:inherit;padding:2px 10px}.m .c{margin:6px 0 0;padding:6px 0 0 16px;border-top:1px solid #dee2e6;font-size:12px;color:#495057}.m code{font:13px ui-monospace,monospace}.m img,.m video{display:block;max-width:100%;border-radius:8px;margin-top:6px}
.m a{color:inherit}.m.r{border-left:3px solid var(--parley-primary,#2563eb)}.w{display:block;font-size:12px;font-weight:600;color:#495057}.m.e{background:#fef2f2;color:#991b1b}
.q{display:flex;flex-wrap:wrap;gap:6px;list-style:none;margin:0;padding:0}
.q button,.y{border:1px solid var(--parley-primary,#2563eb);color:var(--parley-primary,#2563eb);background:#fff;border-radius:16px;padding:4px 10px;cursor:pointer;font:inherit}
.y{align-self:flex-start;margin:0 14px 8px}.y:disabled{opacity:.5}
.z{align-self:center;margin:0;font-size:12px;color:#495057}
.n{margin:0 14px 8px;padding:8px 10px;border-radius:8px;background:#fff7ed;color:#9a3412}
.i{display:flex;gap:8px;padding:10px;border-top:1px solid #e5e7eb}
.i textarea{flex:1;resize:none;border:1px solid #d1d5db;border-radius:8px;padding:8px;font:inherit;min-height:40px;max-height:120px}
.s{border:0;border-radius:8px;padding:0 14px;background:var(--parley-primary,#2563eb);color:#fff;cursor:pointer;font:inherit}
.s:disabled{opacity:.5;cursor:default}
.ib{border:1px solid #d1d5db;border-radius:8px;padding:0 10px;background:#fff;cursor:pointer;font:inherit;white-space:nowrap}.ib.r{border-color:#dc2626;color:#dc2626}.ib:disabled{opacity:.5;cursor:default}
.fa{display:flex;flex-wrap:wrap;gap:6px}.fa img{max-height:160px;cursor:zoom-in}.fd{display:inline-block;margin-top:6px;padding:2px 8px;border:1px solid currentColor;border-radius:12px;font-size:12px;text-decoration:none}
.p.d{outline:3px dashed var(--parley-primary,#2563eb);outline-offset:-3px}
.o{padding:4px 14px 8px;text-align:center;color:#6b7280;font-size:12px}
.t{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}`;
