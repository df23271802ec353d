import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState, type FormEvent } from "react";
import type { DeliveryChoice } from "../../api/gen/model/deliveryChoice";
import {
  getGetDeliveryQueryKey,
  useGetDelivery,
  useUpdateDelivery,
} from "../../api/gen/user/user";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Input, Label } from "../../components/ui/field";

/**
 * Settings > Spreadsheet: where finished full searches go by themselves (issue #26 item
 * 2), so a long search is never lost to a closed tab: nowhere, a CSV by email to the
 * account's own address, or a new tab in one spreadsheet.
 */
export function DeliveryCard() {
  const queryClient = useQueryClient();
  const current = useGetDelivery({ query: { retry: false } });
  const update = useUpdateDelivery({
    mutation: {
      onSuccess: (data) =>
        queryClient.setQueryData(getGetDeliveryQueryKey(), data),
    },
  });
  const [kind, setKind] = useState<DeliveryChoice>("none");
  const [sheet, setSheet] = useState("");
  const sheetId = useId();
  const settings = current.data;

  useEffect(() => {
    if (!settings) return;
    setKind(settings.kind);
    setSheet(settings.spreadsheetId ?? "");
  }, [settings]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({
      data: { kind, spreadsheetId: kind === "sheets" ? sheet : null },
    });
  };

  const options: Array<{
    value: DeliveryChoice;
    label: string;
    note?: string;
    disabled?: boolean;
  }> = [
    {
      value: "none",
      label: "Nowhere",
      note: "Open and export results yourself while they are held.",
    },
    {
      value: "email",
      label: "Email me the CSV",
      note: settings?.emailAvailable
        ? `To ${settings.email}.`
        : "Not set up on this server.",
      disabled: settings ? !settings.emailAvailable : true,
    },
    {
      value: "sheets",
      label: "Add a tab to a spreadsheet",
      note: settings?.sheetsAvailable
        ? "A new tab for each search."
        : "Not available on this server.",
      disabled: settings ? !settings.sheetsAvailable : true,
    },
  ];

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">
        Deliver full searches
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        When a full search finishes, send its leads here, even if you have left
        the app.
      </p>
      <form className="mt-4 space-y-3" onSubmit={submit}>
        <fieldset className="space-y-2">
          <legend className="sr-only">Where finished full searches go</legend>
          {options.map((option) => (
            <label
              key={option.value}
              className="flex items-start gap-2 text-sm"
            >
              <input
                type="radio"
                name="delivery"
                value={option.value}
                checked={kind === option.value}
                disabled={option.disabled}
                onChange={() => setKind(option.value)}
                className="mt-1"
              />
              <span>
                <span className="font-medium text-slate-900">
                  {option.label}
                </span>
                {option.note && (
                  <span className="block text-slate-500">{option.note}</span>
                )}
              </span>
            </label>
          ))}
        </fieldset>
        {kind === "sheets" && (
          <div>
            <Label htmlFor={sheetId}>Spreadsheet link or id</Label>
            <Input
              id={sheetId}
              value={sheet}
              onChange={(e) => setSheet(e.target.value)}
              placeholder="https://docs.google.com/spreadsheets/d/..."
            />
            {settings?.kind === "sheets" && settings.spreadsheetName && (
              <p className="mt-1 text-xs text-slate-500">
                Now: {settings.spreadsheetName}
              </p>
            )}
          </div>
        )}
        {update.isError && (
          <p role="alert" className="text-sm text-red-700">
            {update.error?.message || "Could not save the delivery."}
          </p>
        )}
        {update.isSuccess && !update.isPending && (
          <p role="status" className="text-sm text-green-700">
            Saved.
          </p>
        )}
        <Button
          type="submit"
          size="sm"
          disabled={update.isPending || !settings}
        >
          Save delivery
        </Button>
      </form>
    </Card>
  );
}
