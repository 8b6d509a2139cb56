import { Button, Text } from "@react-email/components";
import { MailLayout } from "../mail/templates/layout";

const text = { fontSize: "15px", color: "#3f3f46" } as const;
const button = {
  backgroundColor: "#b91c1c",
  color: "#ffffff",
  padding: "12px 20px",
  borderRadius: "6px",
} as const;

/** Decision 0570: the archive is ready; the link works once, for 7 days, only signed in as its owner. */
export function DataExportReadyEmail(props: { campusName: string; downloadUrl: string; expires: string }) {
  return (
    <MailLayout
      preview="Your data is ready to download"
      campusName={props.campusName}
      heading="Your data is ready"
    >
      <Text style={text}>
        The archive of your data you asked for is ready: a ZIP file with your profile, posts, photos, messages
        and more, and a README that explains each file.
      </Text>
      <Button href={props.downloadUrl} style={button}>
        Download my data
      </Button>
      <Text style={text}>{`Link: ${props.downloadUrl}`}</Text>
      <Text style={text}>
        {`The link works once, until ${props.expires}, and only when you are signed in to your account. If you didn't ask for this, change your password.`}
      </Text>
    </MailLayout>
  );
}

/** Decision 0571: the last mail an account gets. */
export function AccountDeletedEmail(props: { campusName: string }) {
  return (
    <MailLayout
      preview="Your account has been deleted"
      campusName={props.campusName}
      heading="Your account has been deleted"
    >
      <Text style={text}>
        Your account and everything you posted have been deleted. Messages you sent stay in the other person's
        conversation, shown from 'Deleted account'. Payment records are kept without your name.
      </Text>
      <Text style={text}>
        Your username and e-mail address can be used for a new account after 30 days. If you didn't do this,
        write to us at once from the site's Help page.
      </Text>
    </MailLayout>
  );
}
