import { SellerGate } from "../seller/seller-gate";
import { NewProductForm } from "./new-product-form";

/** /new: behind the same gates as the dashboard (SPEC section 4). */
export function NewProductPage() {
  return <SellerGate>{({ user }) => <NewProductForm userId={user.id} />}</SellerGate>;
}
