import { Menu, X } from "lucide-react";
import { useId, useState } from "react";
import { useLocation } from "react-router";
import { useI18n } from "../../lib/i18n";
import { Button } from "../ui/button";

/**
 * A header's menu on a phone: whether it is open, and the button that opens and closes it. The menu
 * belongs to the location it was opened at, so any navigation closes it.
 */
export function usePhoneMenu() {
  const menuId = useId();
  const location = useLocation();
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === location.key;
  const setOpen = (next: boolean) => setOpenAt(next ? location.key : null);
  return { menuId, open, setOpen, close: () => setOpen(false) };
}

export function PhoneMenuButton({ menu }: { menu: ReturnType<typeof usePhoneMenu> }) {
  const { t } = useI18n();
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-expanded={menu.open}
      aria-controls={menu.menuId}
      onClick={() => menu.setOpen(!menu.open)}
    >
      {menu.open ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
      <span className="sr-only">{t(menu.open ? "site.menu.close" : "site.menu.open")}</span>
    </Button>
  );
}
