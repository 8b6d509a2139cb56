import { useEffect, useState } from "react";
import { Modal } from "~/app/components/ui/modal";

/** A text-only post is sent in a blink: the progress dialog only shows for slower sends. */
const PROGRESS_DELAY_MS = 300;

/** spec 2 §2: 'Uploading Post...', and with files 'Uploading Photos...' with a percentage. */
export function UploadProgressModal({
  processing,
  progress,
}: {
  processing: boolean;
  progress: number | null;
}) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!processing) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), PROGRESS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [processing]);
  const percent = progress === null ? null : Math.round(progress * 100);
  return (
    <Modal
      open={processing && shown}
      onOpenChange={() => {}}
      title="Uploading Post..."
      hideClose
      dismissible={false}
    >
      <div className="flex flex-col gap-2" aria-live="polite">
        {percent !== null ? (
          <p className="text-sm text-zinc-700">
            Uploading Photos... <span className="tabular-nums">{percent}%</span>
          </p>
        ) : null}
        <div
          role="progressbar"
          aria-label="Upload progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent ?? undefined}
          className="h-2 w-full overflow-hidden rounded-full bg-zinc-200"
        >
          <div
            className={`h-full rounded-full bg-brand-600 transition-[width] ${percent === null ? "w-1/3 animate-pulse" : ""}`}
            style={percent === null ? undefined : { width: `${percent}%` }}
          />
        </div>
      </div>
    </Modal>
  );
}
