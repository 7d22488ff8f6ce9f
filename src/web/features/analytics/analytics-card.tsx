import { BarChart3 } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";

/** The dashboard's way to the analytics page. */
export function AnalyticsCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Analytics</CardTitle>
        <CardDescription>Sales and views over time, and where your buyers came from.</CardDescription>
      </CardHeader>
      <div className="p-6 pt-4">
        <Button asChild variant="secondary" className="w-full">
          <Link to="/dashboard/analytics">
            <BarChart3 aria-hidden="true" />
            Analytics
          </Link>
        </Button>
      </div>
    </Card>
  );
}
