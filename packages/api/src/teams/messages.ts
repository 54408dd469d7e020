import { defineMessages } from "../i18n/define";

/** Messages of team members, invitation links and ownership. */
export const teamsMessages = defineMessages({
  "role_name.owner": { en: "Owner", "zh-CN": "所有者" },
  "role_name.admin": { en: "Administrator", "zh-CN": "管理员" },
  "role_name.developer": { en: "Developer", "zh-CN": "开发者" },
  "role_name.operator": { en: "Operator", "zh-CN": "客服" },
  "role_name.viewer": { en: "Viewer", "zh-CN": "访客" },
  "thing.team_member": { en: "Member", "zh-CN": "成员" },
  "thing.team_role": { en: "Role", "zh-CN": "角色" },
  "thing.team_invitation": { en: "Invitation link", "zh-CN": "邀请链接" },
  team_own_role: { en: "You cannot change your own role", "zh-CN": "不能修改自己的角色" },
  team_owner_role: { en: "The owner's role cannot be changed; transfer ownership instead", "zh-CN": "不能修改所有者的角色，请使用转让所有权" },
  team_owner_role_by_transfer: { en: "A member becomes owner only by an ownership transfer", "zh-CN": "只能通过转让所有权成为所有者" },
  team_role_unknown: { en: "This role does not exist in the space", "zh-CN": "此空间没有该角色" },
  team_grant_exceeds: { en: "You cannot give a role permissions you do not have yourself", "zh-CN": "不能授予超出你自身权限的角色" },
  team_admin_owner_only: { en: "Only the owner can make or unmake an administrator", "zh-CN": "只有所有者可以任免管理员" },
  team_remove_owner: { en: "The owner cannot be removed from the space", "zh-CN": "不能移除空间所有者" },
  team_remove_self: { en: "You cannot remove yourself; exit the space instead", "zh-CN": "不能移除自己，请使用退出空间" },
  team_remove_admin_owner_only: { en: "Only the owner can remove an administrator", "zh-CN": "只有所有者可以移除管理员" },
  team_owner_only: { en: "Only the owner of the space can transfer ownership", "zh-CN": "只有空间所有者可以转让所有权" },
  team_transfer_self: { en: "You already own this space", "zh-CN": "你已是该空间的所有者" },
  team_personal_transfer: { en: "A personal space always belongs to its user", "zh-CN": "个人空间不能转让" },
  team_personal_space: {
    en: "Invitations are for team spaces; create or switch to a team space first",
    "zh-CN": "只有团队空间可以邀请成员，请先创建或切换到团队空间",
  },
  team_invitation_expired: { en: "This invitation link has expired", "zh-CN": "此邀请链接已过期" },
  team_invitation_revoked: { en: "This invitation link has been revoked", "zh-CN": "此邀请链接已被撤销" },
  team_invitation_used_up: { en: "This invitation link has been used the maximum number of times", "zh-CN": "此邀请链接的使用次数已达上限" },
  team_invitation_unknown: { en: "This invitation link is not valid", "zh-CN": "邀请链接无效" },
  team_already_member: { en: "You are already a member of {space}", "zh-CN": "你已是{space}的成员" },
});
