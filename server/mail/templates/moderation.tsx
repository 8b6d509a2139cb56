import { Button, Text } from "@react-email/components";
import { MailLayout } from "./layout";

/**
 * Decision 0543: a moderator's action, told to the student: what was done, the public reason,
 * the end of a suspension, and a link to their standing. Never who acted.
 */
export function ModerationEmail(props: {
  campusName: string;
  heading: string;
  reasonLabel: string;
  reason: string | null;
  until: string | null;
  standingUrl: string;
}) {
  return (
    <MailLayout preview={props.heading} campusName={props.campusName} heading={props.heading}>
      {props.reason ? (
        <Text style={{ fontSize: "15px", color: "#3f3f46" }}>{`${props.reasonLabel}: ${props.reason}`}</Text>
      ) : null}
      {props.until ? (
        <Text style={{ fontSize: "15px", color: "#3f3f46" }}>
          {`You can sign in and read, but not post, comment, message, offer, report or boost ${props.until}.`}
        </Text>
      ) : null}
      <Text style={{ fontSize: "15px", color: "#3f3f46" }}>
        Your standing page shows every strike with its reason, and lets you appeal a strike.
      </Text>
      <Button
        href={props.standingUrl}
        style={{ backgroundColor: "#b91c1c", color: "#ffffff", padding: "12px 20px", borderRadius: "6px" }}
      >
        See your standing
      </Button>
      <Text style={{ fontSize: "13px", color: "#5b5b63" }}>{`Or open this link: ${props.standingUrl}`}</Text>
    </MailLayout>
  );
}
