import { Body, Container, Head, Heading, Html, Preview, Section, Text } from "@react-email/components";
import type { ReactNode } from "react";

/** The frame every mail shares. Keep digits out of it: a code mail's code must be its only 4-digit number. */
export function MailLayout(props: {
  preview: string;
  campusName: string;
  heading: string;
  /** Why the reader gets this mail, for mails they chose (decision 0630); else a code or link someone asked for. */
  reason?: string;
  children: ReactNode;
}) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{props.preview}</Preview>
      <Body style={{ backgroundColor: "#f4f4f5", fontFamily: "Helvetica, Arial, sans-serif", margin: 0 }}>
        <Container
          style={{ backgroundColor: "#ffffff", margin: "24px auto", padding: "32px", maxWidth: "480px" }}
        >
          <Text style={{ color: "#b91c1c", fontWeight: 700, fontSize: "14px", margin: 0 }}>
            {`${props.campusName} Buy / Sell`}
          </Text>
          <Heading as="h1" style={{ fontSize: "22px", color: "#1c1c1e" }}>
            {props.heading}
          </Heading>
          <Section>{props.children}</Section>
          <Text style={{ color: "#6b6b73", fontSize: "12px", marginTop: "32px" }}>
            {props.reason ??
              "You received this e-mail because someone used this address on Campus Buy Sell. If it was not you, you can ignore it."}
          </Text>
        </Container>
      </Body>
    </Html>
  );
}
