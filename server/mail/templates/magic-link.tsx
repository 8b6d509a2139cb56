import { Button, Text } from "@react-email/components";
import { MailLayout } from "./layout";

/** The passwordless sign-in (or sign-up) link (spec 1 §4 'Magic link'; decision 0060). */
export function MagicLinkEmail(props: { url: string; campusName: string; registering: boolean }) {
  const action = props.registering ? "finish creating your account" : "log in";
  return (
    <MailLayout
      preview={props.registering ? "Finish signing up" : "Your sign-in link"}
      campusName={props.campusName}
      heading={props.registering ? "Finish signing up" : "Log in with this link"}
    >
      <Text style={{ fontSize: "15px", color: "#3f3f46" }}>
        {`Open the link below to ${action}. It works once, for one hour.`}
      </Text>
      <Button
        href={props.url}
        style={{ backgroundColor: "#b91c1c", color: "#ffffff", padding: "12px 20px", borderRadius: "6px" }}
      >
        {props.registering ? "Finish Signing Up" : "Log In"}
      </Button>
      <Text style={{ fontSize: "13px", color: "#5b5b63" }}>{`Or open this link: ${props.url}`}</Text>
      <Text style={{ fontSize: "13px", color: "#5b5b63" }}>
        Never forward this e-mail: anyone with the link can log in as you.
      </Text>
    </MailLayout>
  );
}
