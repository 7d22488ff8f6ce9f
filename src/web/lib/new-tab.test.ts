import { describe, expect, it, vi } from "vitest";
import { openPendingTab } from "./new-tab";

function fakeWindow(tab: Partial<Window> | null) {
  return { open: vi.fn(() => tab as Window | null), location: { assign: vi.fn() } };
}

describe("openPendingTab", () => {
  it("opens a blank tab at once, cut off from this page, and points it at the URL later", () => {
    const tab = { opener: {} as Window, closed: false, location: { href: "" } as Location, close: vi.fn() };
    const win = fakeWindow(tab);
    const pending = openPendingTab(win);
    expect(win.open).toHaveBeenCalledWith("", "_blank");
    expect(tab.opener).toBeNull();
    pending.open("https://files.example/f.pdf");
    expect(tab.location.href).toBe("https://files.example/f.pdf");
    expect(win.location.assign).not.toHaveBeenCalled();
  });

  it("opens the URL in the current page when the popup was blocked or closed", () => {
    const blocked = fakeWindow(null);
    openPendingTab(blocked).open("/file");
    expect(blocked.location.assign).toHaveBeenCalledWith("/file");

    const closedTab = { opener: null, closed: true, location: { href: "" } as Location, close: vi.fn() };
    const closed = fakeWindow(closedTab);
    openPendingTab(closed).open("/file");
    expect(closed.location.assign).toHaveBeenCalledWith("/file");
  });

  it("closes the blank tab when there is nothing to open", () => {
    const tab = { opener: null, closed: false, location: { href: "" } as Location, close: vi.fn() };
    openPendingTab(fakeWindow(tab)).close();
    expect(tab.close).toHaveBeenCalled();
  });
});
