import { Webhook } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";

/** The dashboard's way to the webhooks page. */
export function WebhooksCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Webhooks</CardTitle>
        <CardDescription>Send your sales and refunds to your own tools, signed.</CardDescription>
      </CardHeader>
      <div className="p-6 pt-4">
        <Button asChild variant="secondary" className="w-full">
          <Link to="/dashboard/webhooks">
            <Webhook aria-hidden="true" />
            Webhooks
          </Link>
        </Button>
      </div>
    </Card>
  );
}
