import { LifeBuoy, Mail } from "lucide-react";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";

export const SUPPORT_EMAIL = "support@flatfee.local";

export function HelpCard() {
  return (
    <Card role="region" aria-labelledby="help-title">
      <CardHeader>
        <CardTitle id="help-title" className="flex items-center gap-2">
          <LifeBuoy className="size-5 text-brand-600" aria-hidden="true" />
          Need Help?
        </CardTitle>
        <CardDescription>
          Questions about your store, payouts or billing? We answer within a day.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild variant="secondary" className="w-full">
          <a href={`mailto:${SUPPORT_EMAIL}`}>
            <Mail aria-hidden="true" />
            Contact Support
          </a>
        </Button>
      </CardContent>
    </Card>
  );
}
