import { socialHandle, socialUrl } from "~/app/components/shell/campus";
import { buttonClass } from "~/app/components/ui/button";
import { InstagramIcon } from "~/app/components/ui/icons";
import { useRootData } from "~/app/lib/root-data";

/**
 * spec 1 §2 'Settings': help, feedback, about, trust and returns offer a button
 * to message the product's social account ('oubuysell' on OU).
 */
export function DirectMessageButton({ className = "" }: { className?: string }) {
  const { campus } = useRootData();
  const handle = socialHandle(campus);
  return (
    <a
      href={socialUrl(campus)}
      target="_blank"
      rel="noopener noreferrer"
      className={buttonClass("primary", `w-full xs:w-auto ${className}`)}
    >
      <InstagramIcon className="size-[18px]" />
      Send a direct message to {handle}
      <span className="sr-only"> (opens Instagram in a new tab)</span>
    </a>
  );
}
