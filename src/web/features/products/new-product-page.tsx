import { SellerGate } from "../seller/seller-gate";
import { NewProductForm } from "./new-product-form";

/** /new: behind the same gates as the dashboard (product rules, States and transitions). */
export function NewProductPage() {
  return <SellerGate>{({ user }) => <NewProductForm userId={user.id} />}</SellerGate>;
}
