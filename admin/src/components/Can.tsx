import type { ReactNode } from 'react'
import { usePermissions } from 'react-admin'
import { type Permission, roleCan } from '@shared/staff_roles'

/** Whether the signed-in staff member's role holds a permission (shared/staff_roles.ts). */
export function useCan(permission: Permission): boolean {
  const { permissions } = usePermissions<string | null>()
  return roleCan(permissions, permission)
}

/** Shows its children only to roles that hold the permission: the API would refuse the rest. */
export function Can({ permission, children }: { permission: Permission; children: ReactNode }) {
  return useCan(permission) ? <>{children}</> : null
}
