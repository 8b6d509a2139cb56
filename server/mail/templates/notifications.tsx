import { Button, Link, Text } from "@react-email/components";
import { MailLayout } from "./layout";

export interface NotificationMailLine {
  text: string;
  url: string;
}

/**
 * Decision 0251: the notifications of one delay window in one e-mail, each a line that leads to
 * its post or chat, with a visible link to turn these e-mails off (a page that confirms with a
 * button: decision 0251).
 */
export function NotificationsEmail(props: {
  campusName: string;
  heading: string;
  lines: NotificationMailLine[];
  more: number;
  listUrl: string;
  settingsUrl: string;
  unsubscribeUrl: string;
}) {
  return (
    <MailLayout preview={props.heading} campusName={props.campusName} heading={props.heading}>
      {props.lines.map((line) => (
        <Text key={line.url + line.text} style={{ fontSize: "15px", color: "#3f3f46", margin: "8px 0" }}>
          <Link href={line.url} style={{ color: "#1c1c1e" }}>
            {line.text}
          </Link>
        </Text>
      ))}
      {props.more > 0 ? (
        <Text style={{ fontSize: "15px", color: "#3f3f46" }}>{`And ${props.more} more.`}</Text>
      ) : null}
      <Button
        href={props.listUrl}
        style={{ backgroundColor: "#b91c1c", color: "#ffffff", padding: "12px 20px", borderRadius: "6px" }}
      >
        See Notifications
      </Button>
      <Text style={{ fontSize: "13px", color: "#5b5b63" }}>
        <Link href={props.unsubscribeUrl} style={{ color: "#5b5b63" }}>
          Turn off notification e-mails
        </Link>
        {" · "}
        <Link href={props.settingsUrl} style={{ color: "#5b5b63" }}>
          Notification settings
        </Link>
      </Text>
    </MailLayout>
  );
}
