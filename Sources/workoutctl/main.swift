print("workoutctl")
