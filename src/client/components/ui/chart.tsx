import * as React from 'react';
import * as RechartsPrimitive from 'recharts';
import { cn } from '@/lib/utils';
import { formatCount } from '@shared/format';

// shadcn/ui's chart component (https://ui.shadcn.com/docs/components/chart), typed for Recharts 3.

const THEMES = { light: '', dark: '.dark' } as const;

export type ChartConfig = {
  [k in string]: { label?: React.ReactNode; icon?: React.ComponentType } & (
    { color?: string; theme?: never } | { color?: never; theme: Record<keyof typeof THEMES, string> }
  );
};

type ChartContextProps = { config: ChartConfig };
const ChartContext = React.createContext<ChartContextProps | null>(null);

function useChart() {
  const context = React.useContext(ChartContext);
  if (!context) throw new Error('useChart must be used within a <ChartContainer />');
  return context;
}

function ChartContainer({
  id,
  className,
  children,
  config,
  ...props
}: React.ComponentProps<'div'> & {
  config: ChartConfig;
  children: React.ComponentProps<typeof RechartsPrimitive.ResponsiveContainer>['children'];
}) {
  const uniqueId = React.useId();
  const chartId = `chart-${id || uniqueId.replace(/:/g, '')}`;
  return (
    <ChartContext.Provider value={{ config }}>
      <div
        data-slot="chart"
        data-chart={chartId}
        className={cn(
          "flex aspect-video justify-center text-xs [&_.recharts-cartesian-axis-tick_text]:fill-muted-foreground [&_.recharts-cartesian-grid_line[stroke='#ccc']]:stroke-border/50 [&_.recharts-curve.recharts-tooltip-cursor]:stroke-border [&_.recharts-polar-grid_[stroke='#ccc']]:stroke-border [&_.recharts-radial-bar-background-sector]:fill-muted [&_.recharts-rectangle.recharts-tooltip-cursor]:fill-muted [&_.recharts-reference-line_[stroke='#ccc']]:stroke-border [&_.recharts-sector]:outline-hidden [&_.recharts-sector[stroke='#fff']]:stroke-transparent [&_.recharts-surface]:outline-hidden",
          className,
        )}
        {...props}
      >
        <ChartStyle id={chartId} config={config} />
        <RechartsPrimitive.ResponsiveContainer>{children}</RechartsPrimitive.ResponsiveContainer>
      </div>
    </ChartContext.Provider>
  );
}

/** Each config key becomes a CSS variable `--color-<key>` inside the chart. */
const ChartStyle = ({ id, config }: { id: string; config: ChartConfig }) => {
  const colorConfig = Object.entries(config).filter(([, c]) => c.theme || c.color);
  if (!colorConfig.length) return null;
  return (
    <style
      dangerouslySetInnerHTML={{
        __html: Object.entries(THEMES)
          .map(
            ([theme, prefix]) => `
${prefix} [data-chart=${id}] {
${colorConfig
  .map(([key, itemConfig]) => {
    const color = itemConfig.theme?.[theme as keyof typeof itemConfig.theme] || itemConfig.color;
    return color ? `  --color-${key}: ${color};` : null;
  })
  .join('\n')}
}
`,
          )
          .join('\n'),
      }}
    />
  );
};

const ChartTooltip = RechartsPrimitive.Tooltip;

interface PayloadItem {
  name?: string | number;
  value?: number | string | Array<number | string>;
  dataKey?: string | number | ((obj: unknown) => unknown);
  color?: string;
  fill?: string;
  payload?: Record<string, unknown> & { fill?: string };
}

function ChartTooltipContent({
  active,
  payload,
  className,
  indicator = 'dot',
  hideLabel = false,
  label,
  labelKey,
  nameKey,
}: {
  active?: boolean;
  payload?: ReadonlyArray<PayloadItem>;
  label?: React.ReactNode;
  className?: string;
  indicator?: 'line' | 'dot' | 'dashed';
  hideLabel?: boolean;
  labelKey?: string;
  nameKey?: string;
}) {
  const { config } = useChart();
  if (!active || !payload?.length) return null;
  const first = payload[0]!;
  const labelConfig = getPayloadConfig(config, first, labelKey || String(first.dataKey ?? first.name ?? 'value'));
  const title = hideLabel ? null : (labelConfig?.label ?? label);
  return (
    <div
      className={cn(
        'grid min-w-[8rem] items-start gap-1.5 rounded-lg border border-border/50 bg-background px-2.5 py-1.5 text-xs shadow-xl',
        className,
      )}
    >
      {title ? <div className="font-medium">{title}</div> : null}
      <div className="grid gap-1.5">
        {payload.map((item, i) => {
          const key = String(nameKey ? item.payload?.[nameKey] : (item.name ?? item.dataKey ?? 'value'));
          const itemConfig = getPayloadConfig(config, item, key);
          const color = item.payload?.fill || item.color || item.fill;
          return (
            <div key={i} className="flex w-full items-center gap-2">
              <div
                className={cn('shrink-0 rounded-[2px]', indicator === 'dot' ? 'h-2.5 w-2.5' : 'h-2.5 w-1')}
                style={{ backgroundColor: color }}
              />
              <div className="flex flex-1 justify-between gap-4 leading-none">
                <span className="text-muted-foreground">{itemConfig?.label ?? item.name}</span>
                {item.value !== undefined && (
                  <span className="font-mono font-medium text-foreground tabular-nums">
                    {formatCount(Number(item.value))}
                  </span>
                )}
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}

const ChartLegend = RechartsPrimitive.Legend;

function ChartLegendContent({
  className,
  payload,
  verticalAlign = 'bottom',
  nameKey,
}: {
  className?: string;
  payload?: ReadonlyArray<{ value?: string | number; color?: string; dataKey?: unknown; payload?: unknown }>;
  verticalAlign?: 'top' | 'bottom' | 'middle';
  nameKey?: string;
}) {
  const { config } = useChart();
  if (!payload?.length) return null;
  return (
    <div
      className={cn(
        'flex flex-wrap items-center justify-center gap-4',
        verticalAlign === 'top' ? 'pb-3' : 'pt-3',
        className,
      )}
    >
      {payload.map((item, i) => {
        const p = item.payload as Record<string, unknown> | undefined;
        const key = String(nameKey && p ? p[nameKey] : (item.dataKey ?? item.value ?? 'value'));
        const itemConfig = config[key];
        return (
          <div key={i} className="flex items-center gap-1.5">
            <div className="h-2 w-2 shrink-0 rounded-[2px]" style={{ backgroundColor: item.color }} />
            {itemConfig?.label ?? item.value}
          </div>
        );
      })}
    </div>
  );
}

function getPayloadConfig(config: ChartConfig, payload: PayloadItem, key: string) {
  const inner = payload.payload;
  let configKey = key;
  if (typeof (payload as Record<string, unknown>)[key] === 'string')
    configKey = (payload as Record<string, unknown>)[key] as string;
  else if (inner && typeof inner[key] === 'string') configKey = inner[key];
  return config[configKey] ?? config[key];
}

export { ChartContainer, ChartLegend, ChartLegendContent, ChartStyle, ChartTooltip, ChartTooltipContent };
