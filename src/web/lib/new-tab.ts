export type PendingTab = {
  /** Sends the tab to `url`; without a tab (popup blocked), the current page opens it instead. */
  open: (url: string) => void;
  /** Closes the tab when there is nothing to show after all. */
  close: () => void;
};

type Opener = Pick<Window, "open"> & { location: Pick<Location, "assign"> };

/**
 * Opens a blank tab now, while the click still counts as a user gesture, to be pointed at a URL
 * that only arrives later (popup blockers refuse tabs opened after an await).
 */
export function openPendingTab(win: Opener = window): PendingTab {
  const tab = win.open("", "_blank");
  // The file's page must not be able to script this one.
  if (tab) tab.opener = null;
  return {
    open: (url) => {
      if (tab && !tab.closed) tab.location.href = url;
      else win.location.assign(url);
    },
    close: () => tab?.close(),
  };
}
