import { consentStore, mountAssentConsent, type AssentHandlers, type ConsentState, type MountedConsent, type RegimeName, type TokenProvider } from "@assent/element";
import {
  computed, defineComponent, getCurrentScope, h, onBeforeUnmount, onMounted, onScopeDispose, ref, shallowRef, toValue, watch,
  type MaybeRefOrGetter, type PropType, type Ref,
} from "vue";

export { showPreferences } from "@assent/element";
export type { AssentConsentProps, AssentHandlers, ConsentState, Failure, RegimeName, TokenProvider } from "@assent/element";

type Handler<K extends keyof AssentHandlers> = PropType<NonNullable<AssentHandlers[K]>>;

/**
 * `<AssentConsent project="prj_…" @change="…">`: `<assent-consent>` with these settings; its events as Vue
 * events (`ready`, `change`, `error`, `dismiss`). The element renders itself (banner and preferences in the
 * browser's top layer); this places it where the component is, in a `display: contents` span.
 */
export const AssentConsent = defineComponent({
  name: "AssentConsent",
  props: {
    project: { type: String, required: true },
    api: String,
    token: String,
    tokenProvider: Function as PropType<TokenProvider>,
    identityId: String,
    lang: String,
    regime: String as PropType<RegimeName>,
    consentMode: Boolean,
    open: Boolean,
    internalReference: String,
    application: String,
    collectionMethod: String,
    // Declared as props so that `@ready` and the rest reach the element's listeners (Vue passes them as onReady…).
    onReady: Function as Handler<"onReady">,
    onChange: Function as Handler<"onChange">,
    onError: Function as Handler<"onError">,
    onDismiss: Function as Handler<"onDismiss">,
  },
  setup(props) {
    const host = ref<HTMLSpanElement>();
    let mounted: MountedConsent | undefined;
    const settings = () => {
      const { onReady, onChange, onError, onDismiss, ...rest } = props;
      return rest;
    };
    onMounted(() => {
      mounted = mountAssentConsent(host.value!, settings(), () => props);
    });
    watch(settings, (next) => mounted?.update(next));
    onBeforeUnmount(() => mounted?.unmount());
    return () => h("span", { ref: host, style: { display: "contents" } });
  },
});

/** The visitor's consent as a ref, updated as the widget tells it; undefined until it knows (and on the server). */
export function useAssent(): Readonly<Ref<ConsentState | undefined>> {
  const state = shallowRef(consentStore.get());
  const stop = consentStore.subscribe(() => (state.value = consentStore.get()));
  if (getCurrentScope()) onScopeDispose(stop);
  return state;
}

/** Whether the purpose (its referenceId, or a ref or getter of it) may be used now; undefined until the widget knows. */
export function useConsent(purpose: MaybeRefOrGetter<string>): Readonly<Ref<boolean | undefined>> {
  const state = useAssent();
  return computed(() => state.value?.consents[toValue(purpose)]);
}
