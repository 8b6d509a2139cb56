import { Button, Text } from "@react-email/components";
import { MailLayout } from "../mail/templates/layout";

const text = { fontSize: "15px", color: "#3f3f46" } as const;
const button = {
  backgroundColor: "#b91c1c",
  color: "#ffffff",
  padding: "12px 20px",
  borderRadius: "6px",
} as const;

/** Decision 0270: the receipt of a boost, sent once per paid checkout (through the outbox). */
export function AdReceiptEmail(props: {
  campusName: string;
  amount: string;
  days: string;
  title: string;
  adUrl: string;
  testMode: boolean;
}) {
  return (
    <MailLayout preview="Your ad is running" campusName={props.campusName} heading="Your ad is running">
      <Text
        style={text}
      >{`Thanks! We received ${props.amount} for boosting your post for ${props.days}.`}</Text>
      {props.title ? <Text style={text}>{`Ad: ${props.title}`}</Text> : null}
      {props.testMode ? <Text style={text}>TEST MODE – no card was charged.</Text> : null}
      <Text style={text}>
        You can pause, resume or stop it at any time; the whole days it does not run are refunded.
      </Text>
      <Button href={props.adUrl} style={button}>
        View your ad
      </Button>
    </MailLayout>
  );
}

/** Decision 0275: the short summary mailed when an ad has run its course. */
export function AdSummaryEmail(props: {
  campusName: string;
  title: string;
  spent: string;
  views: string;
  reached: string;
  messages: string;
  clicks: string;
  adUrl: string;
}) {
  return (
    <MailLayout preview="Your ad has finished" campusName={props.campusName} heading="Your ad has finished">
      {props.title ? <Text style={text}>{`Ad: ${props.title}`}</Text> : null}
      <Text style={text}>{`Spent: ${props.spent}`}</Text>
      <Text style={text}>
        {`Views: ${props.views} · Accounts reached: ${props.reached} · Messages: ${props.messages} · Website clicks: ${props.clicks}`}
      </Text>
      <Button href={props.adUrl} style={button}>
        Boost again
      </Button>
    </MailLayout>
  );
}
