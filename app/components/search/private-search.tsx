import { useEffect } from "react";
import { useSignInModal } from "~/app/components/auth/sign-in-modal";
import { PrivateCommunityGate } from "~/app/components/schools/private-community";

/** spec 1 §6: a visitor on a private campus gets the sign-in modal ('search') over the gate. */
export function PrivateSearch({ campus }: { campus: Parameters<typeof PrivateCommunityGate>[0]["campus"] }) {
  const signIn = useSignInModal();
  useEffect(() => {
    signIn.open("search");
  }, [signIn]);
  return <PrivateCommunityGate campus={campus} />;
}
