import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { Link } from "react-router";
import { DEFAULT_TOAST_MS, type Toast, type ToastInput, type ToastType } from "~/app/lib/toast";

interface ToastApi {
  show(toast: ToastInput): void;
}

let localIds = 0;

const ToastContext = createContext<ToastApi>({ show: () => {} });

/** Shows a toast from anywhere in the page: `useToast().show({ message, type })`. */
export function useToast(): ToastApi {
  return useContext(ToastContext);
}

const styles: Record<ToastType, { box: string; bar: string }> = {
  success: { box: "bg-emerald-600 text-white", bar: "bg-emerald-200" },
  okay: { box: "bg-sky-600 text-white", bar: "bg-sky-200" },
  black: { box: "bg-zinc-900 text-white", bar: "bg-zinc-400" },
  danger: { box: "bg-red-600 text-white", bar: "bg-red-200" },
};

function ToastItem({ toast, onDone }: { toast: Toast; onDone(id: string): void }) {
  useEffect(() => {
    const timer = setTimeout(() => onDone(toast.id), toast.durationMs);
    return () => clearTimeout(timer);
  }, [toast, onDone]);
  const style = styles[toast.type];
  return (
    <div
      role={toast.type === "danger" ? "alert" : "status"}
      data-toast-type={toast.type}
      className={`pointer-events-auto relative w-full max-w-md overflow-hidden rounded-lg shadow-lg ${style.box}`}
    >
      <div className="flex items-start gap-3 px-4 py-3 text-sm font-medium">
        <p className="flex-1">{toast.message}</p>
        {toast.link ? (
          <Link to={toast.link.to} className="font-bold underline" onClick={() => onDone(toast.id)}>
            {toast.link.label}
          </Link>
        ) : null}
        <button
          type="button"
          aria-label="Dismiss"
          className="-mr-1 rounded px-1 opacity-80 hover:opacity-100"
          onClick={() => onDone(toast.id)}
        >
          ×
        </button>
      </div>
      <div
        aria-hidden="true"
        className={`toast-progress absolute bottom-0 left-0 h-1 ${style.bar}`}
        style={{ animationDuration: `${toast.durationMs}ms` }}
      />
    </div>
  );
}

/** The one toast stack (spec 1 §2 'Alerts'); `serverToast` is what the root loader took from the cookie. */
export function ToastProvider({ serverToast, children }: { serverToast: Toast | null; children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const shown = useRef(new Set<string>());

  const push = useCallback((toast: Toast) => {
    if (shown.current.has(toast.id)) return;
    shown.current.add(toast.id);
    // A newer toast replaces an older one with the same text instead of stacking duplicates.
    setToasts((current) => [...current.filter((t) => t.message !== toast.message), toast].slice(-3));
  }, []);

  useEffect(() => {
    if (serverToast) push(serverToast);
  }, [serverToast, push]);

  const api = useMemo<ToastApi>(
    () => ({
      show: (input) =>
        push({ ...input, id: `local-${++localIds}`, durationMs: input.durationMs ?? DEFAULT_TOAST_MS }),
    }),
    [push],
  );
  const dismiss = useCallback((id: string) => setToasts((current) => current.filter((t) => t.id !== id)), []);

  return (
    <ToastContext.Provider value={api}>
      {children}
      <section
        aria-label="Notifications"
        className="pointer-events-none fixed inset-x-0 top-3 z-[100] flex flex-col items-center gap-2 px-3"
      >
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onDone={dismiss} />
        ))}
      </section>
    </ToastContext.Provider>
  );
}
