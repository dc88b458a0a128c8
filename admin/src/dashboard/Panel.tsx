import type { ReactNode } from 'react'
import { Card, CardHeader } from '@mui/material'

/** Every titled card of the release desk: the same header, outlined, optionally full height. */
export function Panel(props: {
  title: string
  subheader?: string
  fill?: boolean
  testId?: string
  children: ReactNode
}) {
  return (
    <Card
      variant="outlined"
      sx={props.fill ? { height: '100%' } : undefined}
      data-testid={props.testId}
    >
      <CardHeader
        title={props.title}
        subheader={props.subheader}
        slotProps={{ title: { variant: 'subtitle1', sx: { fontWeight: 600 } } }}
      />
      {props.children}
    </Card>
  )
}
