import { TicketPercent } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";

/** The dashboard's way to the discounts page. */
export function DiscountsCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Discount codes</CardTitle>
        <CardDescription>Offer a lower price with a code or an offer link.</CardDescription>
      </CardHeader>
      <div className="p-6 pt-4">
        <Button asChild variant="secondary" className="w-full">
          <Link to="/dashboard/discounts">
            <TicketPercent aria-hidden="true" />
            Discount codes
          </Link>
        </Button>
      </div>
    </Card>
  );
}
