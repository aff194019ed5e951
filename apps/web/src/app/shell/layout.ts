// Desktop or mobile layout (spec §2): mobile at 768 px wide or less, or on a mobile browser.
import { useMediaQuery } from '@mantine/hooks';

export const MOBILE_BREAKPOINT_PX = 768;

const MOBILE_AGENT = /Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobile/i;

export const isMobileUserAgent = (userAgent: string) => MOBILE_AGENT.test(userAgent);

export function isMobileLayout(width: number, userAgent: string): boolean {
  return width <= MOBILE_BREAKPOINT_PX || isMobileUserAgent(userAgent);
}

export function useMobileLayout(): boolean {
  const narrow = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX}px)`, isMobileLayout(window.innerWidth, ''), {
    getInitialValueInEffect: false,
  });
  return narrow || isMobileUserAgent(navigator.userAgent);
}
