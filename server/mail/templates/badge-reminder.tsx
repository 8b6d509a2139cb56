import { Button, Text } from "@react-email/components";
import { MailLayout } from "./layout";

/**
 * Decision 0681: the verified student badge lapses in 30 days (or just did); the student keeps it
 * by confirming the school address with a new code. The link is built from the configured hosts.
 */
export function BadgeReminderEmail(props: {
  campusName: string;
  heading: string;
  lapsesOn: string;
  renewUrl: string;
}) {
  return (
    <MailLayout preview={props.heading} campusName={props.campusName} heading={props.heading}>
      <Text style={{ fontSize: "15px", color: "#3f3f46" }}>
        {`Your verified student badge ends on ${props.lapsesOn}. To keep it, open the link, press Send PIN and enter the code we send to your school email.`}
      </Text>
      <Text style={{ fontSize: "15px", color: "#3f3f46" }}>
        Without it your account keeps everything else: your posts, conversations and reviews.
      </Text>
      <Button
        href={props.renewUrl}
        style={{ backgroundColor: "#b91c1c", color: "#ffffff", padding: "12px 20px", borderRadius: "6px" }}
      >
        Confirm your school email
      </Button>
      <Text style={{ fontSize: "13px", color: "#5b5b63" }}>{`Or open this link: ${props.renewUrl}`}</Text>
    </MailLayout>
  );
}
