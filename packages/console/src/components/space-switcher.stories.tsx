import type { Meta, StoryObj } from "@storybook/react-vite";
import { fn } from "storybook/test";
import type { SpaceEntry } from "../lib/api/types";
import { SpaceSwitcher } from "./space-switcher";

const space = (overrides: Partial<SpaceEntry>): SpaceEntry => ({
  spaceId: "spc_personal",
  companyCode: "PERSONAL",
  companyName: "Ada Lovelace",
  kind: "personal",
  role: "owner",
  roleId: "owner",
  roleName: "Owner",
  memberGrade: "FREE",
  companyTabIconUrl: null,
  companyTabTitle: null,
  companyIconWordUrl: null,
  current: false,
  createdAt: "2026-01-01T00:00:00.000Z",
  ...overrides,
});

const spaces: SpaceEntry[] = [
  space({ current: true }),
  space({
    spaceId: "spc_team",
    companyCode: "ACME",
    companyName: "Acme Support",
    kind: "team",
    role: "admin",
    roleId: "admin",
    roleName: "Administrator",
    memberGrade: "PROFESSION",
  }),
];

const meta = {
  title: "Components/SpaceSwitcher",
  component: SpaceSwitcher,
  args: { spaces, onSelect: fn(), onCreateTeam: fn(async () => true) },
} satisfies Meta<typeof SpaceSwitcher>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A personal space and one team; the personal one is current. */
export const PersonalAndTeam: Story = {};

/** Before the space list has arrived: the stored company name stands in. */
export const Loading: Story = { args: { spaces: [], fallbackName: "Ada Lovelace" } };
