import { Button, Text } from "@react-email/components";
import { MailLayout } from "./layout";

export function PasswordResetEmail(props: { url: string; campusName: string }) {
  return (
    <MailLayout preview="Reset your password" campusName={props.campusName} heading="Reset your password">
      <Text style={{ fontSize: "15px", color: "#3f3f46" }}>
        Someone asked to reset the password of your Campus Buy Sell account. Choose a new password with the
        button below; the link works for one hour.
      </Text>
      <Button
        href={props.url}
        style={{ backgroundColor: "#b91c1c", color: "#ffffff", padding: "12px 20px", borderRadius: "6px" }}
      >
        Reset password
      </Button>
      <Text style={{ fontSize: "13px", color: "#5b5b63" }}>{`Or open this link: ${props.url}`}</Text>
    </MailLayout>
  );
}
