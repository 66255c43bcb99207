import { createCalendar, destroyCalendar, Interaction, List, ResourceTimeGrid, TimeGrid } from '@event-calendar/core';
import type { Calendar } from '@event-calendar/core';
import '@event-calendar/core/index.css';
import './calendar.css';
import { useEffect, useRef } from 'react';

const PLUGINS = [ResourceTimeGrid, TimeGrid, List, Interaction];

/**
 * @event-calendar/core mounted from a ref: created once, destroyed on unmount, and every option
 * that changed since the last render handed over with `setOption` (re-creating it would lose the
 * scroll position and any drag under way).
 */
export function EventCalendar({ options, className }: { options: Calendar.Options; className?: string }) {
  const host = useRef<HTMLDivElement>(null);
  const calendar = useRef<Calendar | null>(null);
  const last = useRef<Calendar.Options>({});

  useEffect(() => {
    if (!host.current) return;
    calendar.current = createCalendar(host.current, PLUGINS, options);
    last.current = options;
    return () => {
      const ec = calendar.current;
      calendar.current = null;
      if (ec) void destroyCalendar(ec);
    };
    // Created once; later options go through setOption below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const ec = calendar.current;
    if (!ec) return;
    for (const key of Object.keys(options) as Array<keyof Calendar.Options>) {
      if (options[key] !== last.current[key]) ec.setOption(key, options[key]);
    }
    last.current = options;
  });

  return <div ref={host} className={className} />;
}
