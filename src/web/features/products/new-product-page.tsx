import { PackagePlus } from "lucide-react";
import { ComingSoon } from "../../components/layout/coming-soon";
import { SellerGate } from "../seller/seller-gate";

export function NewProductPage() {
  return (
    <SellerGate>
      {() => (
        <ComingSoon
          icon={PackagePlus}
          title="New Product"
          body="Upload a file, set a price and get a shareable link for your product."
        />
      )}
    </SellerGate>
  );
}
