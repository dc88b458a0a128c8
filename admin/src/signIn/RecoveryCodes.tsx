import { Box, Button, Stack, Typography } from '@mui/material'

/**
 * The recovery codes of a new authenticator, shown this once: each signs in once without the
 * device. The console opens when the person says they have kept them.
 */
export function RecoveryCodes({ codes, onSaved }: { codes: string[]; onSaved: () => void }) {
  return (
    <Stack spacing={2}>
      <Typography variant="body2">
        Your authenticator is set up. Keep these recovery codes somewhere safe: each one signs you
        in once if you lose your phone. They are shown only now.
      </Typography>
      <Box
        component="ol"
        aria-label="Recovery codes"
        sx={{
          'm': 0,
          'pl': 4,
          'columnCount': 2,
          'fontFamily': 'monospace',
          'fontSize': 15,
          '& li': { py: 0.25 },
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Button variant="contained" fullWidth onClick={onSaved}>
        I have saved these codes
      </Button>
    </Stack>
  )
}
