import { Button, Column, Img, Link, Row, Section, Text } from "@react-email/components";
import { MailLayout } from "./layout";

export interface DigestMailListing {
  url: string;
  title: string;
  /** 'Free', '$40 · Firm'; null when the listing states no price. */
  price: string | null;
  status: string;
  /** An absolute address of the listing's first photo (480 px), or null. */
  photoUrl: string | null;
  /** The student's searches that found it ('desk, lamp'). */
  matches: string;
}

export interface DigestMailSearch {
  name: string;
  unsubscribeUrl: string;
}

/**
 * Decision 0630: the daily e-mail of a student's saved searches: each new listing once, with the
 * searches that found it, at most ten and '+ N more'; a one-click link per search to stop its
 * alerts, and the page that manages them all.
 */
export function SavedSearchDigestEmail(props: {
  campusName: string;
  heading: string;
  listings: DigestMailListing[];
  more: number;
  moreUrl: string;
  searches: DigestMailSearch[];
  manageUrl: string;
}) {
  return (
    <MailLayout
      preview={props.heading}
      campusName={props.campusName}
      heading={props.heading}
      reason="You get this e-mail because you chose daily alerts for your saved searches on Campus Buy Sell."
    >
      {props.listings.map((listing) => (
        <Section key={listing.url} style={{ borderTop: "1px solid #e4e4e7", padding: "12px 0" }}>
          <Row>
            {listing.photoUrl ? (
              <Column style={{ width: "72px", verticalAlign: "top" }}>
                <Img
                  src={listing.photoUrl}
                  alt=""
                  width="64"
                  height="64"
                  style={{ borderRadius: "6px", objectFit: "cover" }}
                />
              </Column>
            ) : null}
            <Column style={{ verticalAlign: "top" }}>
              <Text style={{ fontSize: "15px", margin: "0 0 4px", fontWeight: 700 }}>
                <Link href={listing.url} style={{ color: "#1c1c1e" }}>
                  {listing.title}
                </Link>
              </Text>
              <Text style={{ fontSize: "14px", color: "#3f3f46", margin: "0 0 4px" }}>
                {[listing.price, listing.status].filter(Boolean).join(" · ")}
              </Text>
              <Text
                style={{ fontSize: "13px", color: "#5b5b63", margin: 0 }}
              >{`matches: ${listing.matches}`}</Text>
            </Column>
          </Row>
        </Section>
      ))}
      {props.more > 0 ? (
        <Text style={{ fontSize: "15px", color: "#3f3f46" }}>
          <Link href={props.moreUrl} style={{ color: "#1c1c1e" }}>{`+ ${props.more} more`}</Link>
        </Text>
      ) : null}
      <Button
        href={props.manageUrl}
        style={{ backgroundColor: "#b91c1c", color: "#ffffff", padding: "12px 20px", borderRadius: "6px" }}
      >
        See Saved Searches
      </Button>
      <Text style={{ fontSize: "13px", color: "#5b5b63" }}>
        {props.searches.map((search) => (
          <span key={search.unsubscribeUrl}>
            <Link href={search.unsubscribeUrl} style={{ color: "#5b5b63" }}>
              {`Stop alerts for “${search.name}”`}
            </Link>
            {" · "}
          </span>
        ))}
        <Link href={props.manageUrl} style={{ color: "#5b5b63" }}>
          Manage saved searches
        </Link>
      </Text>
    </MailLayout>
  );
}
