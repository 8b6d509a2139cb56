import { Text } from "@react-email/components";
import { MailLayout } from "./layout";

export function VerificationCodeEmail(props: { code: number; campusName: string; purpose: string }) {
  return (
    <MailLayout
      preview={`Your verification code is ${props.code}`}
      campusName={props.campusName}
      heading="Your verification code"
    >
      <Text style={{ fontSize: "15px", color: "#3f3f46" }}>{`Enter this code to ${props.purpose}:`}</Text>
      <Text style={{ fontSize: "32px", fontWeight: 700, letterSpacing: "6px", color: "#1c1c1e" }}>
        {props.code}
      </Text>
      <Text style={{ fontSize: "15px", color: "#3f3f46" }}>
        Codes expire after two hours. Never share this code with anyone.
      </Text>
    </MailLayout>
  );
}
