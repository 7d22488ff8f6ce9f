/**
 * The embed script's styles, inside its Shadow DOM roots: the host page's CSS cannot reach them and
 * they cannot reach the host page. `all: initial` on the host stops inherited fonts and colours too.
 */

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

export const BUTTON_CSS = `
:host { all: initial; display: inline-block; vertical-align: middle; max-width: 100%; }
.buy {
  all: unset; box-sizing: border-box; display: inline-flex; flex-direction: column; align-items: flex-start;
  gap: 2px; max-width: 100%; padding: 10px 16px; border-radius: 10px; cursor: pointer;
  font: 600 15px/1.35 ${FONT}; color: #fff; background: #4f46e5;
  box-shadow: 0 1px 2px rgb(15 23 42 / 0.15); transition: background-color 0.15s;
}
.buy:hover { background: #4338ca; }
.buy:active { background: #3730a3; }
.buy:focus-visible { box-shadow: 0 0 0 2px #fff, 0 0 0 4px #4f46e5; }
.buy:disabled { cursor: not-allowed; color: #334155; background: #e2e8f0; box-shadow: none; }
.row { display: flex; align-items: baseline; gap: 10px; max-width: 100%; }
.label { min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.price {
  flex: none; padding: 1px 8px; border-radius: 999px; background: rgb(15 23 42 / 0.28);
  font-variant-numeric: tabular-nums;
}
.buy:disabled .price { background: #fff; }
.stock { font-size: 12px; font-weight: 500; opacity: 0.92; }
`;

export const OVERLAY_CSS = `
:host { all: initial; }
dialog {
  box-sizing: border-box; display: flex; flex-direction: column; padding: 0; border: 0; margin: auto;
  width: min(760px, calc(100vw - 32px)); height: min(720px, calc(100dvh - 32px));
  max-width: none; max-height: none; overflow: hidden; border-radius: 16px; background: #fff; color: #0f172a;
  box-shadow: 0 24px 64px rgb(15 23 42 / 0.35); font: 400 15px/1.4 ${FONT};
}
dialog:not([open]) { display: none; }
dialog::backdrop { background: rgb(15 23 42 / 0.55); }
.bar {
  flex: none; display: flex; align-items: center; gap: 12px; padding: 8px 8px 8px 16px;
  border-bottom: 1px solid #e2e8f0;
}
.title { flex: 1; min-width: 0; margin: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-weight: 600; }
.close {
  all: unset; box-sizing: border-box; flex: none; display: grid; place-items: center; width: 40px; height: 40px;
  border-radius: 8px; cursor: pointer; color: #334155; font: 400 26px/1 ${FONT};
}
.close:hover { background: #f1f5f9; color: #0f172a; }
.close:focus-visible { box-shadow: 0 0 0 2px #4f46e5; }
.body { position: relative; flex: 1; min-height: 0; }
.loading { position: absolute; inset: 0; display: grid; place-items: center; margin: 0; color: #475569; }
iframe { position: absolute; inset: 0; width: 100%; height: 100%; border: 0; background: #fff; opacity: 0; }
iframe.ready { opacity: 1; }
@media (max-width: 639px) {
  dialog { width: 100vw; height: 100dvh; border-radius: 0; }
}
`;
