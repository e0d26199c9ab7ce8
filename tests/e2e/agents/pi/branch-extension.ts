// The kit's one extension: `/deck-branch ENTRY_ID` moves the session's leaf to
// an earlier entry, as picking that entry in pi's interactive `/tree` does
// (no summary of the abandoned branch), so the next prompt starts a second
// branch of the same file. Loaded with `-e` for the turn that branches only.
export default function (pi: any) {
  pi.registerCommand("deck-branch", {
    description: "Move the leaf to an earlier entry (the kit's /tree)",
    handler: async (args: string, ctx: any) => {
      const r = await ctx.navigateTree(args.trim(), { summarize: false });
      if (r?.cancelled) throw new Error("deck-branch: navigateTree was cancelled");
    },
  });
}
